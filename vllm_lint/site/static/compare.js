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
    if (what === "choices" && Array.isArray(oldRaw) && newRaw === null) {  // (timeline.describe_change)
      return "choices no longer listed (any value; " + oldRaw.length + " before)";
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
      var succ = (has(R.options, s) && R.options[s].successor) || a.actions[a.owners[s]][7] || null;
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
      var succ = has(R.env, n) ? R.env[n].successor : null;
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

  // The comparison as an upgrade guide, worded as site/model.py's migration_guide words it.
  function groups(names, owners) {  // --x and --no-x of the same option as one entry
    var present = {}, out = [];
    names.forEach(function (s) { present[s] = true; });
    names.forEach(function (s) {
      if (s.indexOf("--no-") === 0 && present["--" + s.slice(5)] && owners[s] === owners["--" + s.slice(5)]) return;
      var neg = "--no-" + s.slice(2);
      out.push(s.indexOf("--") === 0 && present[neg] && owners[neg] === owners[s] ? [s, neg] : [s]);
    });
    return out;
  }
  function item(names, to, text, sep) { return {names: names, to: to || null, text: text || null, sep: sep || " \u2014 "}; }
  function removalTodo(ov, succ, to) {
    if (succ) return "its successor `" + succ + "` is not in " + to + " either";
    if (ov.note) return ov.note;
    if (ov.noop) return "it had no effect by then: delete it";
    return "no replacement: delete it";
  }
  function envRemovalTodo(ov, to) {
    var succ = ov.successor;
    if (succ && succ.charAt(0) === "-") return "use `" + succ + "` instead";
    if (succ) return "its successor `" + succ + "` is not in " + to + " either";
    if (ov.note) return ov.note;
    return "no longer read: delete it";
  }
  function guide(d, a, b, to) {
    function removed(g) {
      var s = g[0], ov = has(R.options, s) ? R.options[s] : {};
      if (s === "-O" && C.o_rewriting.indexOf(to) >= 0) return item(g, null, C.o_rewritten);
      return item(g, null, removalTodo(ov, ov.successor || a.actions[a.owners[s]][7] || null, to));
    }
    function renamed(r) {
      var dot = r[1].indexOf(".");
      return item([r[0]], r[1], dot < 0 ? null :
        "now the key `" + r[1].slice(dot + 1) + "` of `" + r[1].slice(0, dot) + "`'s JSON");
    }
    function deprecated(s) {
      var succ = (has(R.options, s) && R.options[s].successor) || b.actions[s][7]; return item([s], null, succ ? "use `" + succ + "` instead" : null); }
    function changed(c) { return item([c[0]], null, c[1], ": "); }
    function plain(n) { return item([n]); }
    return [
      ["removed", "Removed options: what to do", false, groups(d.removed, a.owners).map(removed)],
      ["renamed", "Renamed options", false, d.renamed.map(renamed)],
      ["changed", "Changed defaults, choices and types", false, d.changed.map(changed)],
      ["deprecated", "Newly deprecated options", false, d.deprecated.map(deprecated)],
      ["env-removed", "Removed environment variables: what to do", true, d.env_removed.map(function (n) {
        return item([n], null, envRemovalTodo(has(R.env, n) ? R.env[n] : {}, to)); })],
      ["env-renamed", "Renamed environment variables", true, d.env_renamed.map(function (r) { return item([r[0]], r[1]); })],
      ["env-changed", "Changed environment variables", true, d.env_changed.map(changed)],
      ["env-deprecated", "Newly deprecated environment variables", true, d.env_deprecated.map(plain)],
      ["added", "Added options", false, groups(d.added, b.owners).map(function (g) { return item(g); })],
      ["env-added", "Added environment variables", true, d.env_added.map(plain)]];
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
  function prose(text) {  // backquoted words as code
    var span = el("span", null, "todo");
    text.split("`").forEach(function (part, i) {
      if (i % 2) span.appendChild(el("code", part)); else if (part) span.appendChild(document.createTextNode(part));
    });
    return span;
  }

  function render(from, to) {
    var a = window.VLLM_LINT_RELEASES[from], b = window.VLLM_LINT_RELEASES[to];
    var sections = guide(diff(a, b), a, b, to);
    out.textContent = "";
    out.appendChild(el("h2", "vLLM " + from + " \u2192 " + to, "compare-title"));
    out.appendChild(el("p", "What a launch written for " + from + " must change to start on " + to +
      " comes first: removals with what to do, renames, changed defaults and choices, deprecations, the environment; then what is new."));
    var cmd = el("p");
    cmd.appendChild(document.createTextNode("In the terminal: "));
    cmd.appendChild(el("code", "vllm-lint upgrade --to " + to + " --dry-run DIR", "cmd"));
    cmd.appendChild(document.createTextNode(" shows the fixes it would make to the launches in DIR and what is left for you."));
    out.appendChild(cmd);
    var ready = from + "..." + to;
    if (C.prerendered.indexOf(ready) >= 0) {
      var p = el("p"), link2 = el("a", "ready-made page"); link2.href = ready + "/index.html";
      p.appendChild(document.createTextNode("Also as a ")); p.appendChild(link2); out.appendChild(p);
    }
    var counts = el("ul", null, "counts");
    sections.forEach(function (sec) {
      var li = el("li"), a2 = el("a", sec[1]); a2.href = "#" + sec[0];
      li.appendChild(a2); li.appendChild(document.createTextNode(" ")); li.appendChild(el("b", String(sec[3].length)));
      counts.appendChild(li);
    });
    out.appendChild(counts);
    sections.forEach(function (sec) {
      var items = sec[3], s = el("section", null, "diff-section"), link = sec[2] ? envLink : optLink;
      s.id = sec[0];
      s.appendChild(el("h2", sec[1] + " (" + items.length + ")"));
      if (!items.length) { s.appendChild(el("p", "None.", "none")); out.appendChild(s); return; }
      var ul = el("ul", null, "diff-list" + (items[0].text ? " guide" : ""));
      items.forEach(function (it) {
        var li = el("li");
        it.names.forEach(function (n, i) {
          if (i) li.appendChild(document.createTextNode(" / "));
          li.appendChild(link(n));
        });
        if (it.to) { li.appendChild(document.createTextNode(" \u2192 ")); li.appendChild(it.to.charAt(0) === "-" ? optLink(it.to) : envLink(it.to)); }
        if (it.text) { li.appendChild(document.createTextNode(it.sep)); li.appendChild(prose(it.text)); }
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
