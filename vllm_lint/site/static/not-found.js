// The host's page for a missing address (404.html: GitHub Pages and most static hosts serve it).
// A comparison permalink compare/A...B/ of a pair without a ready-made page opens the client-side
// compare of that pair; the link home points at the site's root, found from the address.
(function () {
  "use strict";
  var path = location.pathname;
  var m = path.match(/^(.*\/)compare\/([^\/]+)\.\.\.([^\/]+?)\/?(?:index\.html)?$/);
  if (m) {
    location.replace(m[1] + "compare/index.html?from=" + encodeURIComponent(decodeURIComponent(m[2]))
                     + "&to=" + encodeURIComponent(decodeURIComponent(m[3])));
    return;
  }
  var at = path.search(/\/(options|env|releases|compare|rules|reference|static|data)\//);
  var root = at >= 0 ? path.slice(0, at + 1) : path.slice(0, path.lastIndexOf("/") + 1);
  var home = document.getElementById("home");
  if (home) home.href = root + "index.html";
})();
