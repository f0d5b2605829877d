// Client-side search over search-index.js (rows of [name, kind, url, note]); no framework.
(function () {
  "use strict";
  var rows = window.VLLM_LINT_SEARCH || [];
  var q = document.getElementById("q"), out = document.getElementById("results");
  if (!q || !out) return;
  // A name is matched as typed (exact, prefix, substring), then by words: every word of the query
  // inside the name with its separators dropped ("cuda graph" finds --cuda-graph-sizes and
  // --cudagraph-capture-sizes), then allowing one typo (one letter missing, extra, wrong or two
  // swapped) in a word of four letters or more.
  function norm(s) { return s.toLowerCase().replace(/^-+/, "").replace(/_/g, "-"); }
  function words(s) { return norm(s).split(/[\s\-.=]+/).filter(Boolean); }
  function withinOneEdit(a, b) {
    var la = a.length, lb = b.length, i = 0;
    if (Math.abs(la - lb) > 1) return false;
    while (i < la && i < lb && a.charAt(i) === b.charAt(i)) i++;
    if (la === lb) {
      return i === la || a.slice(i + 1) === b.slice(i + 1) ||
        (a.charAt(i) === b.charAt(i + 1) && a.charAt(i + 1) === b.charAt(i) && a.slice(i + 2) === b.slice(i + 2));
    }
    return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
  }
  var keys = rows.map(function (r) { return norm(r[0]); });
  var parts = rows.map(function (r) { return words(r[0]); });
  var compact = parts.map(function (w) { return w.join(""); });
  function nearly(token, i) {
    if (compact[i].indexOf(token) >= 0) return true;
    if (token.length < 4) return false;
    for (var j = 0; j < parts[i].length; j++) if (withinOneEdit(token, parts[i][j])) return true;
    return false;
  }
  function rank(t, tokens, joined, i) {
    var k = keys[i], at = k.indexOf(t);
    if (at >= 0) return k === t ? 0 : at === 0 ? 1 : 2;
    if (!tokens.length) return -1;
    if (tokens.every(function (w) { return compact[i].indexOf(w) >= 0; })) return 3;
    if (joined.length >= 4 && withinOneEdit(joined, compact[i])) return 4;
    if (tokens.every(function (w) { return nearly(w, i); })) return 4;
    return -1;
  }
  function search(text) {
    var t = norm(text.trim()), hits = [];
    if (!t) return hits;
    var tokens = words(text), joined = tokens.join("");
    for (var i = 0; i < rows.length; i++) {
      var r = rank(t, tokens, joined, i);
      if (r >= 0) hits.push([r, keys[i].length, rows[i][0], i]);
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
