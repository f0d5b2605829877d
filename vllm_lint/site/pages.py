"""The pages there are hundreds of, and those listing hundreds of rows, written in Python: an
option's, a spelling's and an environment variable's page, the lists of options and of variables
(the ``main`` block each shows inside ``base.html``: ``Frame``), and the sections of a comparison (a
release's page and the compare page of a pair show them).

Each is a tight loop over a page's facts. Jinja2 made an ``escape`` call and a ``Markup`` object
for every ``{{ }}`` and a loop object for every ``{% for %}``, ~63,000 of them per build; here
each value is escaped once, as text (``h``: ``markupsafe.escape``'s entities), and the links come
from the builder's memo of rendered links (``Builder.opt_link``, ``release_link``, ``env_link``).
The other pages, one or a few each, stay templates under ``templates/``. ``b`` is the
``build.Builder`` writing the site.
"""

from __future__ import annotations

from typing import Any, Callable

from . import model as m


def h(value: Any) -> str:
    """``value`` as text in HTML: what Jinja2's ``{{ value }}`` writes (``markupsafe.escape``:
    ``&``, ``<``, ``>``, ``'`` and ``"`` as entities)."""
    s = value if value.__class__ is str else str(value)
    if "&" in s:
        s = s.replace("&", "&amp;")
    if "<" in s or ">" in s:
        s = s.replace(">", "&gt;").replace("<", "&lt;")
    if "'" in s or '"' in s:
        s = s.replace("'", "&#39;").replace('"', "&#34;")
    return s


class Frame:
    """``base.html`` around a page written in Python, rendered once per depth: markers stand where
    a page's title, description, ``main`` and ``scripts`` blocks go, and the text between them is
    kept (``fill`` joins the parts with a page's own, escaped where the template escapes them)."""

    SLOTS = ("title", "description", "main", "scripts")

    def __init__(self, render: Callable[..., str], root: str) -> None:
        from markupsafe import Markup

        html = render(root=root, **{k: Markup(f"\0{k}\0") for k in self.SLOTS})
        self.parts = html.split("\0")  # literal, slot name, literal, ...

    def fill(self, title: str, description: str, main: str, scripts: str) -> str:
        values = {"title": h(title), "description": h(description), "main": main, "scripts": scripts}
        parts = self.parts
        return "".join(part if k % 2 == 0 else values[part] for k, part in enumerate(parts))


def option_main(b: Any, page: m.OptionPage, root: str, *, st: Any, timeline: str, gone: bool, last: str,
                gaps: list[str], command: str, canon_last: str) -> str:
    """The ``main`` block of a canonical option's page."""
    rel, opt = b.release_link, b.opt_link
    newest = b.model.newest
    out = [f'<p class="crumbs"><a href="{root}options/index.html">Options</a></p>\n'
           f"<h1><code>{h(page.name)}</code></h1>\n"
           '<dl class="facts">\n'
           '<dt>Accepted by</dt><dd class="accepted">']
    accepted = []
    for e in page.spelling_eras:
        text = rel(e.first, root)
        if e.first != e.last:
            text += " .. " + rel(e.last, root)
        if e.value != page.name:
            text += f" (as an alias of {opt(e.value, root)})"
        accepted.append(text)
    out.append("; ".join(accepted) + "</dd>\n")
    if gone:
        out.append(f'<dt>Last accepted by</dt><dd class="last-accepted">{rel(last, root)}</dd>\n'
                   f"<dt>{'Renamed in' if st.successor else 'Removed in'}</dt>"
                   f'<dd class="removed-in">{rel(st.removed_in[-1], root)}'
                   + (f": use {opt(st.successor, root)}" if st.successor else "") + "</dd>\n")
    else:
        dep = page.deprecated_eras and page.deprecated_eras[-1].last == newest
        out.append(f"<dt>Status</dt><dd>accepted by the newest release in the database ({rel(newest, root)})"
                   + (", deprecated" if dep else "") + "</dd>\n")
    if gaps:
        out.append("<dt>Gaps</dt><dd>not accepted from " + ", ".join(rel(r, root) for r in gaps)
                   + " until it came back</dd>")
    if st.successor:
        out.append(f"<dt>Successor</dt><dd>{opt(st.successor, root)}"
                   + (f' <span class="ev">({h(st.successor_evidence)})</span>' if st.successor_evidence else "")
                   + "</dd>")
    if page.deprecated_eras:
        out.append("<dt>Deprecated</dt><dd>" + "; ".join(h(e.label) for e in page.deprecated_eras) + "</dd>")
    o = page.latest
    several = len(page.kind_eras) > 1
    out.append("<dt>Kind</dt><dd>" + "; ".join(
        h(e.value[0]) + (f", type <code>{h(e.value[1])}</code>" if e.value[1] else "")
        + (f" ({h(e.label)})" if several else "") for e in page.kind_eras) + "</dd>\n")
    out.append(f"<dt>Default at {rel(canon_last, root)}</dt><dd>"
               + ("computed at start-up" if o.default_computed else f"<code>{h(m.shown(o.default))}</code>")
               + "</dd>\n")
    if o.choices:
        out.append("<dt>Choices</dt><dd>" + ", ".join(f"<code>{h(c)}</code>" for c in o.choices) + "</dd>")
    spelled = [e for e in page.alias_eras if e.value]
    if spelled:
        out.append("<dt>Other spellings</dt><dd>" + "; ".join(
            ", ".join(f'<a href="{h(root)}{h(m.option_url(a))}"><code>{h(a)}</code></a>' for a in e.value)
            + f" ({h(e.label)})" for e in spelled) + "</dd>")
    several = len(page.config_eras) > 1
    out.append("<dt>Config field</dt><dd>" + "; ".join(
        (f"<code>{h(e.value)}</code>" if e.value else "none recorded") + (f" ({h(e.label)})" if several else "")
        for e in page.config_eras) + "</dd>\n")
    out.append(f'<dt>In the terminal</dt><dd><code class="cmd">{h(command)}</code></dd>\n'
               "</dl>\n"
               '<figure class="tl">\n'
               f'<div class="tl-scroll">{timeline}</div>\n'
               f"<figcaption>{b.legends[0]}</figcaption>\n"
               "</figure>\n"
               "<h2>Changes</h2>\n")
    if st.changes:
        out.append('<table class="list changes">\n'
                   "<thead><tr><th>release</th><th>what</th><th>change</th></tr></thead>\n"
                   "<tbody>\n")
        out.extend(f"<tr><td>{rel(c.version, root)}</td><td>{h(c.what)}</td>"
                   f"<td><code>{h(m.describe_change(c.what, c.old, c.new))}</code></td></tr>\n" for c in st.changes)
        out.append("</tbody>\n</table>\n")
    else:
        out.append('<p class="none">No change of default, choices, type or kind while it was accepted.</p>')
    if page.json_keys:
        out.append('<h2 id="json-keys">JSON keys</h2>\n<p>The value is a JSON object of '
                   + ", ".join(f"<code>{h(e.value)}</code> ({h(e.label)})" for e in page.json_classes)
                   + f"; each key can also be given as <code>{h(page.name)}.KEY VALUE</code> from 0.9.0 on.</p>\n"
                   '<table class="list keys">\n'
                   "<thead><tr><th>key</th><th>accepted</th><th>type</th><th>default</th><th>changes</th></tr></thead>\n"
                   "<tbody>\n")
        for k in page.json_keys:
            latest = k.latest
            default = ("computed" if latest.get("default_computed")
                       else f"<code>{h(m.shown(latest.get('default')))}</code>")
            out.append(f'<tr id="key-{h(k.name)}"><td><code>{h(k.name)}</code></td>'
                       f"<td>{'; '.join(h(e.label) for e in k.eras)}</td>"
                       f"<td><code>{h(latest.get('type'))}</code></td><td>{default}</td><td>"
                       + "<br>".join(f"{rel(c.version, root)}: <code>{h(c.text)}</code>" for c in k.changes)
                       + "</td></tr>\n")
        out.append("</tbody>\n</table>\n")
    _docs(b, out, page, "The engine-arguments page of each release that accepted "
                        f"<code>{h(page.name)}</code>, on docs.vllm.ai")
    return "".join(out)


def _docs(b: Any, out: list[str], page: Any, what: str) -> None:
    """The section linking a release's own docs, and the releases without a link, and why."""
    if not (page.docs or page.docs_missing):
        return
    out.append("<h2>vLLM's documentation</h2>\n")
    if page.docs:
        version, url = page.docs[-1]
        out.append(f'<p>{what}: latest <a href="{h(url)}" rel="external">{h(version)}</a>.</p>\n'
                   f"<details><summary>Every release ({len(page.docs)})</summary>"
                   f'<p class="inline-links">{b.docs_links(page.docs)}</p></details>\n')
    if page.docs_missing:
        out.append('<p class="none">No link for '
                   + "; ".join(f"{h(e.label)}: {h(e.value)}" for e in page.docs_missing) + ".</p>")


def spelling_main(b: Any, page: m.OptionPage, root: str, *, owners: list[str], command: str) -> str:
    """The ``main`` block of the page of a string that was no option of its own."""
    rel, opt = b.release_link, b.opt_link
    out = [f'<p class="crumbs"><a href="{root}options/index.html">Options</a> · '
           f'<a href="{root}options/index.html#spellings">other spellings</a></p>\n'
           f"<h1><code>{h(page.name)}</code></h1>\n"
           "<p>Not an option of its own: another spelling of " + " or ".join(opt(o, root) for o in owners)
           + ", depending on the release.</p>\n"
           '<table class="list eras">\n'
           "<thead><tr><th>releases</th><th>means</th></tr></thead>\n"
           "<tbody>\n"]
    for e in page.spelling_eras:
        note = page.era_notes.get(e.a)
        out.append(f"<tr><td>{rel(e.first, root)}" + (f" .. {rel(e.last, root)}" if e.first != e.last else "")
                   + f"</td><td>{opt(e.value, root)}" + (f' <span class="ev">({h(note)})</span>' if note else "")
                   + "</td></tr>\n")
    last = page.spelling_eras[-1].last
    if last != b.model.newest:
        out.append(f"<tr><td>after {h(last)}</td><td>not accepted</td></tr>")
    out.append(f'</tbody>\n</table>\n<p>In the terminal: <code class="cmd">{h(command)}</code></p>\n')
    return "".join(out)


def env_main(b: Any, page: m.EnvPage, root: str, *, timeline: str, gone: bool, last: str, command: str) -> str:
    """The ``main`` block of an environment variable's page."""
    rel, opt, env = b.release_link, b.opt_link, b.env_link
    newest = b.model.newest
    several = len(page.category_eras) > 1
    out = [f'<p class="crumbs"><a href="{root}env/index.html">Environment variables</a></p>\n'
           f"<h1><code>{h(page.name)}</code></h1>\n"
           '<dl class="facts">\n'
           '<dt>Kind</dt><dd class="env-kind">'
           + "; ".join(f"{h(e.value)} variable" + (f" ({h(e.label)})" if several else "") for e in page.category_eras)
           + "</dd>\n"
           '<dt>Read by</dt><dd class="accepted">'
           + "; ".join(rel(e.first, root) + (f" .. {rel(e.last, root)}" if e.first != e.last else "")
                       for e in page.eras)
           + "</dd>\n"]
    if gone:
        out.append(f'<dt>Last read by</dt><dd class="last-accepted">{rel(last, root)}</dd>\n'
                   f'<dt>Removed in</dt><dd class="removed-in">{rel(page.removed_in[-1], root)}'
                   + (f": {h(page.note)}" if page.note else "") + "</dd>\n")
    else:
        dep = page.deprecated_eras and page.deprecated_eras[-1].last == newest
        out.append(f"<dt>Status</dt><dd>read by the newest release in the database ({rel(newest, root)})"
                   + (", deprecated" if dep else "") + "</dd>\n")
    if page.successor:
        link = opt(page.successor, root) if page.successor.startswith("-") else env(page.successor, root)
        out.append(f"<dt>Successor</dt><dd>{link}</dd>")
    if page.evidence:
        out.append(f'<dt>Evidence</dt><dd class="ev">{h(page.evidence)}</dd>')
    if page.deprecated_eras:
        out.append("<dt>Deprecated</dt><dd>" + "; ".join(h(e.label) for e in page.deprecated_eras) + "</dd>")
    r = page.latest
    at = rel(last, root)
    out.append(f"<dt>Type at {at}</dt><dd><code>{h(r.get('type') or 'none recorded')}</code></dd>\n"
               f"<dt>Default at {at}</dt><dd>"
               + ("computed" if r.get("default_computed") else f"<code>{h(m.shown(r.get('default')))}</code>")
               + "</dd>\n")
    if r.get("choices"):
        out.append("<dt>Choices</dt><dd>" + ", ".join(f"<code>{h(c)}</code>" for c in r.get("choices")) + "</dd>")
    out.append(f'<dt>In the terminal</dt><dd><code class="cmd">{h(command)}</code></dd>\n'
               "</dl>\n"
               '<figure class="tl">\n'
               f'<div class="tl-scroll">{timeline}</div>\n'
               f"<figcaption>{b.legends[1]}</figcaption>\n"
               "</figure>\n"
               "<h2>Changes</h2>\n")
    if page.changes:
        out.append('<table class="list changes">\n'
                   "<thead><tr><th>release</th><th>what</th><th>change</th></tr></thead>\n"
                   "<tbody>\n")
        out.extend(f"<tr><td>{rel(c.version, root)}</td><td>{h(c.what)}</td><td><code>{h(c.text)}</code></td></tr>\n"
                   for c in page.changes)
        out.append("</tbody>\n</table>\n")
    else:
        out.append('<p class="none">No change of default, choices or type while it was read.</p>')
    _docs(b, out, page, "The environment-variables page of each release that read it, on docs.vllm.ai")
    return "".join(out)


def _prose(text: str) -> str:
    """Backquoted words as code."""
    return "".join(f"<code>{h(part)}</code>" if k % 2 else h(part) for k, part in enumerate(text.split("`")))


def diff_sections(b: Any, guide: list[m.GuideSection], root: str) -> str:
    """A comparison as an upgrade guide (``model.migration_guide``): the counts, then each section."""
    opt, env = b.opt_link, b.env_link
    out = ['<ul class="counts">\n']
    out.extend(f'<li><a href="#{h(sec.id)}">{h(sec.title)}</a> <b>{len(sec.items)}</b></li>\n' for sec in guide)
    out.append("</ul>\n")
    for sec in guide:
        out.append(f'<section id="{h(sec.id)}" class="diff-section">\n<h2>{h(sec.title)} ({len(sec.items)})</h2>\n')
        if not sec.items:
            out.append('<p class="none">None.</p>')
        else:
            link = env if sec.env else opt
            out.append(f'<ul class="diff-list{" guide" if sec.items[0].text else ""}">\n')
            for it in sec.items:
                out.append("<li>" + " / ".join(link(n, root) for n in it.names))
                if it.to:
                    out.append(" &rarr; " + (opt(it.to, root) if it.to.startswith("-") else env(it.to, root)))
                if it.text:
                    out.append(f'{h(it.sep)}<span class="todo">{_prose(it.text)}</span>')
                out.append("</li>\n")
            out.append("</ul>\n")
        out.append("</section>\n")
    return "".join(out)


def _status(last: str, deprecated_eras: list[m.Era], newest: str, current: str) -> str:
    if last != newest:
        return "removed"
    return "deprecated" if deprecated_eras and deprecated_eras[-1].last == newest else current


def options_main(b: Any, options: list[m.OptionPage], spellings: list[m.OptionPage], root: str) -> str:
    """The ``main`` block of the list of options, then of the other spellings."""
    oldest, newest = b.model.versions[0], b.model.newest
    out = ["<h1>vLLM options</h1>\n"
           f"<p>{len(options)} options that <code>vllm serve</code> (or the OpenAI API server before it) accepted "
           f"under their own name in at least one release from {h(oldest)} to {h(newest)}, then {len(spellings)} "
           "other spellings (aliases, negations, short forms), each leading to the option it meant, release by "
           "release.</p>\n"
           '<table class="list">\n'
           f"<thead><tr><th>option</th><th>accepted</th><th>status at {h(newest)}</th></tr></thead>\n"
           "<tbody>\n"]
    for p in options:
        eras = p.spelling_eras
        out.append(f'<tr><td><a href="{root}{h(p.url)}"><code>{h(p.name)}</code></a></td>'
                   f"<td>{h(eras[0].first)} .. {h(eras[-1].last)}</td>"
                   f"<td>{_status(eras[-1].last, p.deprecated_eras, newest, 'accepted')}</td></tr>\n")
    out.append("</tbody>\n</table>\n"
               '<h2 id="spellings">Other spellings</h2>\n'
               '<table class="list">\n'
               "<thead><tr><th>spelling</th><th>meant</th></tr></thead>\n"
               "<tbody>\n")
    for p in spellings:
        out.append(f'<tr><td><a href="{root}{h(p.url)}"><code>{h(p.name)}</code></a></td><td>'
                   + "; ".join(f"{h(e.label)}: <code>{h(e.value)}</code>" for e in p.spelling_eras)
                   + "</td></tr>\n")
    out.append("</tbody>\n</table>\n")
    return "".join(out)


def variables_main(b: Any, variables: list[m.EnvPage], root: str) -> str:
    """The ``main`` block of the list of environment variables."""
    oldest, newest = b.model.versions[0], b.model.newest
    build = "; build-time variables are read by the release's build" if any(p.build for p in variables) else ""
    out = ["<h1>vLLM environment variables</h1>\n"
           f"<p>{len(variables)} variables read by at least one vLLM release from {h(oldest)} to {h(newest)}. "
           f"Runtime variables are those of the release's <code>vllm/envs.py</code>{build}.</p>\n"
           '<table class="list">\n'
           f"<thead><tr><th>variable</th><th>kind</th><th>read by</th><th>status at {h(newest)}</th></tr></thead>\n"
           "<tbody>\n"]
    for p in variables:
        out.append(f'<tr><td><a href="{root}{h(p.url)}"><code>{h(p.name)}</code></a></td>'
                   f"<td>{h(', '.join(p.categories))}</td><td>{h(p.eras[0].first)} .. {h(p.eras[-1].last)}</td>"
                   f"<td>{_status(p.eras[-1].last, p.deprecated_eras, newest, 'read')}</td></tr>\n")
    out.append("</tbody>\n</table>\n")
    return "".join(out)
