// Client-side search over search-index.js (rows of [name, kind, url, note]); no framework.
(function () {
  "use strict";
  var rows = window.VLLM_LINT_SEARCH || [];
  var q = document.getElementById("q"), out = document.getElementById("results");
  if (!q || !out) return;
  function norm(s) { return s.toLowerCase().replace(/^-+/, "").replace(/_/g, "-"); }
  var keys = rows.map(function (r) { return norm(r[0]); });
  function search(text) {
    var t = norm(text.trim()), hits = [];
    if (!t) return hits;
    for (var i = 0; i < rows.length; i++) {
      var k = keys[i], at = k.indexOf(t);
      if (at < 0) continue;
      hits.push([k === t ? 0 : at === 0 ? 1 : 2, k.length, rows[i][0], i]);
    }
    hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0); });
    return hits.slice(0, 50).map(function (h) { return rows[h[3]]; });
  }
  function render() {
    out.textContent = "";
    var hits = search(q.value);
    hits.forEach(function (r) {
      var li = document.createElement("li"), a = document.createElement("a"), code = document.createElement("code");
      a.href = r[2]; code.textContent = r[0]; a.appendChild(code); li.appendChild(a);
      var kind = document.createElement("span"); kind.className = "kind"; kind.textContent = r[1]; li.appendChild(kind);
      var note = document.createElement("span"); note.className = "note"; note.textContent = r[3]; li.appendChild(note);
      out.appendChild(li);
    });
    if (q.value.trim() && !hits.length) {
      var li = document.createElement("li"); li.textContent = "No option, variable, release or rule matches."; out.appendChild(li);
    }
  }
  q.addEventListener("input", render);
  q.form.addEventListener("submit", function (e) {
    e.preventDefault();
    var first = out.querySelector("a");
    if (first) window.location.href = first.href;
  });
  var m = /[?&]q=([^&]*)/.exec(window.location.search);
  if (m) { q.value = decodeURIComponent(m[1].replace(/\+/g, " ")); }
  if (q.value) render();
})();
