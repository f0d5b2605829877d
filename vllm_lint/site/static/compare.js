// Client-side comparison of any two releases from data/releases/<version>.js, computed as
// vllm_lint.surface.timeline.diff computes it (the ready-made pages are rendered by that code).
(function () {
  "use strict";
  var C = window.VLLM_LINT_COMPARE, R = window.VLLM_LINT_RENAMES || {options: {}, env: {}};
  var form = document.getElementById("compare"), out = document.getElementById("compare-result");
  var link = document.getElementById("permalink");
  if (!C || !form || !out) return;
  var has = function (o, k) { return Object.prototype.hasOwnProperty.call(o, k); };

  function load(v, done) {
    var all = window.VLLM_LINT_RELEASES || {};
    if (has(all, v)) { done(); return; }
    var s = document.createElement("script");
    s.src = "../data/releases/" + encodeURIComponent(v) + ".js";
    s.onload = done;
    s.onerror = function () { out.textContent = "Cannot load the data of vLLM " + v + "."; };
    document.head.appendChild(s);
  }
  function pyStr(c) {  // str() of a JSON value as Python prints it inside a choices change
    if (c === null) return "None";
    if (c === true) return "True";
    if (c === false) return "False";
    return typeof c === "string" ? c : JSON.stringify(c);
  }
  function describe(what, oldJ, newJ, oldRaw, newRaw) {
    if (what === "choices" && Array.isArray(oldRaw) && Array.isArray(newRaw)) {
      var o = oldRaw.map(JSON.stringify), n = newRaw.map(JSON.stringify), parts = [];
      newRaw.forEach(function (c, i) { if (o.indexOf(n[i]) < 0) parts.push("+" + pyStr(c)); });
      oldRaw.forEach(function (c, i) { if (n.indexOf(o[i]) < 0) parts.push("-" + pyStr(c)); });
      return "choices " + (parts.length ? parts.join(", ") : "reordered");
    }
    return what + " " + oldJ + " -> " + newJ;
  }
  // a field is its text, or [text, equality key] where the text would tell apart equal values
  function text(f) { return Array.isArray(f) ? f[0] : f; }
  function key(f) { return Array.isArray(f) ? f[1] : f; }
  var FIELDS = [["default", 0], ["choices", 1], ["type", 2], ["kind", 4]];
  var ENV_FIELDS = [["default", 0], ["choices", 1], ["type", 2]];

  function diff(a, b) {
    var d = {removed: [], renamed: [], added: [], deprecated: [], changed: [],
             env_removed: [], env_renamed: [], env_added: [], env_deprecated: [], env_changed: []};
    var sa = Object.keys(a.owners).sort(), sb = Object.keys(b.owners).sort();
    sa.forEach(function (s) {
      if (has(b.owners, s)) return;
      var succ = (has(R.options, s) && R.options[s]) || a.actions[a.owners[s]][7] || null;
      if (succ && has(b.owners, succ.split(".")[0])) d.renamed.push([s, succ]); else d.removed.push(s);
    });
    sb.forEach(function (s) { if (!has(a.owners, s)) d.added.push(s); });
    sa.forEach(function (s) {
      if (!has(b.owners, s) || b.owners[s] !== s) return;
      var fa = a.actions[a.owners[s]], fb = b.actions[s];
      if (fb[6] && !fa[6]) d.deprecated.push(s);
      FIELDS.forEach(function (f) {
        var x = fa[f[1]], y = fb[f[1]];
        if (key(x) !== key(y)) d.changed.push([s, describe(f[0], text(x), text(y), fa[3], fb[3])]);
      });
    });
    var ea = Object.keys(a.env).sort(), eb = Object.keys(b.env).sort();
    ea.forEach(function (n) {
      if (has(b.env, n)) return;
      var succ = has(R.env, n) ? R.env[n] : null;
      if (succ && has(b.env, succ)) d.env_renamed.push([n, succ]); else d.env_removed.push(n);
    });
    eb.forEach(function (n) { if (!has(a.env, n)) d.env_added.push(n); });
    ea.forEach(function (n) {
      if (!has(b.env, n)) return;
      var fa = a.env[n], fb = b.env[n];
      if (fb[4] && !fa[4]) d.env_deprecated.push(n);
      ENV_FIELDS.forEach(function (f) {
        var x = fa[f[1]], y = fb[f[1]];
        if (key(x) !== key(y)) d.env_changed.push([n, describe(f[0], text(x), text(y), fa[3], fb[3])]);
      });
    });
    return d;
  }

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  // a name as one folder name of the site, escaped as site/model.py's path_segment does
  function segment(s) {
    var out = "", chars = Array.from(s), i, j, bytes;
    for (i = 0; i < chars.length; i++) {
      if (/^[A-Za-z0-9_-]$/.test(chars[i])) { out += chars[i]; continue; }
      bytes = new TextEncoder().encode(chars[i]);
      for (j = 0; j < bytes.length; j++) out += "~" + (bytes[j] < 16 ? "0" : "") + bytes[j].toString(16).toUpperCase();
    }
    return out || "~";
  }
  function optLink(s) {
    var head = s.split(".")[0], key = s.slice(head.length + 1).split(".")[0];
    var slug = segment(head.indexOf("--") === 0 ? head.slice(2) : head);
    var a = el("a"); a.href = "../options/" + slug + "/index.html" + (key ? "#key-" + key : "");
    a.appendChild(el("code", s));
    return a;
  }
  function envLink(n) {
    if (n.charAt(0) === "-") return optLink(n);
    var a = el("a"); a.href = "../env/" + segment(n) + "/index.html"; a.appendChild(el("code", n)); return a;
  }
  var SECTIONS = [
    ["Removed options", "removed", "opt"], ["Renamed options", "renamed", "rename"],
    ["Added options", "added", "opt"], ["Newly deprecated options", "deprecated", "opt"],
    ["Changed options", "changed", "change"], ["Removed environment variables", "env_removed", "env"],
    ["Renamed environment variables", "env_renamed", "envrename"],
    ["Added environment variables", "env_added", "env"],
    ["Newly deprecated environment variables", "env_deprecated", "env"],
    ["Changed environment variables", "env_changed", "envchange"]];

  function render(from, to) {
    var d = diff(window.VLLM_LINT_RELEASES[from], window.VLLM_LINT_RELEASES[to]);
    out.textContent = "";
    out.appendChild(el("h2", "vLLM " + from + " ... " + to, "compare-title"));
    var ready = from + "..." + to;
    if (C.prerendered.indexOf(ready) >= 0) {
      var p = el("p"), a = el("a", "ready-made page"); a.href = ready + "/index.html";
      p.appendChild(document.createTextNode("Also as a ")); p.appendChild(a); out.appendChild(p);
    }
    SECTIONS.forEach(function (sec) {
      var items = d[sec[1]], s = el("section", null, "diff-section");
      s.id = sec[1].replace("_", "-");
      s.appendChild(el("h2", sec[0] + " (" + items.length + ")"));
      if (!items.length) { s.appendChild(el("p", "None.", "none")); out.appendChild(s); return; }
      var ul = el("ul", null, "diff-list");
      items.forEach(function (it) {
        var li = el("li");
        if (sec[2] === "opt") li.appendChild(optLink(it));
        else if (sec[2] === "env") li.appendChild(envLink(it));
        else if (sec[2] === "rename" || sec[2] === "envrename") {
          var f = sec[2] === "rename" ? optLink : envLink;
          li.appendChild(f(it[0])); li.appendChild(document.createTextNode(" \u2192 ")); li.appendChild(f(it[1]));
        } else {
          li.appendChild(sec[2] === "change" ? optLink(it[0]) : envLink(it[0]));
          li.appendChild(document.createTextNode(": " + it[1]));
        }
        ul.appendChild(li);
      });
      s.appendChild(ul);
      out.appendChild(s);
    });
    var url = "index.html?from=" + encodeURIComponent(from) + "&to=" + encodeURIComponent(to);
    link.textContent = "";
    var pl = el("a", "Permalink to this comparison"); pl.href = url; link.appendChild(pl);
    try { window.history.replaceState(null, "", url); } catch (e) { /* file:// may refuse */ }
  }
  function compare(from, to) {
    if (!has(C.index, from) || !has(C.index, to)) { out.textContent = "Unknown release."; return; }
    out.textContent = "Loading\u2026";
    load(from, function () { load(to, function () { render(from, to); }); });
  }
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    compare(form.elements.from.value, form.elements.to.value);
  });
  var q = {};
  window.location.search.replace(/^\?/, "").split("&").forEach(function (kv) {
    var p = kv.split("="); if (p[0]) q[decodeURIComponent(p[0])] = decodeURIComponent(p[1] || "");
  });
  if (q.from && q.to) {
    form.elements.from.value = q.from; form.elements.to.value = q.to;
    compare(q.from, q.to);
  }
})();
