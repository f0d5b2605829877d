"""The audit report as text (the terminal) and as Markdown (a pull request's description), from
the model alone."""

from __future__ import annotations

from typing import Any, Optional

from ...fsutil import visible
from .model import AuditReport, DriftGroup, FileAudit, Finding, LaunchAudit, fmt_value

_CATEGORY_TITLES = (("breaks", "Breaks at {to}"), ("ignored", "Ignored at {to}"),
                    ("deprecated", "Deprecated on the way"))


def _release_link(v: Optional[str]) -> str:
    return f"[{v}](https://github.com/vllm-project/vllm/releases/tag/v{v})" if v else ""


def _fix_text(f: Finding) -> str:
    if f.category == "drift":
        return ""
    if f.fix == "safe":
        return f"fixed by `--fix`: {f.fix_message}"
    if f.fix == "unsafe":
        return f"unsafe fix: {f.fix_message}"
    return "no automatic fix"


def render_text(report: AuditReport) -> str:
    s = report.summary()
    out = [f"vLLM upgrade audit -> {report.to_version}"
           + (f" (from {report.from_spec})" if report.from_spec else " (from each launch's release)")]
    for fa in report.files:
        out.append("")
        if fa.error:
            out.append(f"{visible(fa.path)}: error: {fa.error}")
            continue
        for line in fa.no_origin:
            out.append(f"{visible(fa.path)}:{line}: not audited: the launch names no vLLM release (no image tag, FROM or "
                       f"pin); pass --default-from VERSION")
        for la in fa.launches:
            out.append(f"{visible(la.path)}:{la.line}: {la.entry}, {la.from_version} -> {la.to_version} "
                       f"(from: {la.from_source}){'  READY' if la.ready else ''}")
            for cat, title in _CATEGORY_TITLES:
                items = getattr(la, cat)
                if not items:
                    continue
                out.append(f"  {title.format(to=la.to_version)} ({len(items)}):")
                out.extend(_text_findings(items, la))
            if la.drift:
                out.append(f"  Default drift: {len(la.drift)} option(s) the launch does not set, listed once "
                           f"for {la.from_version} -> {la.to_version} below")
            if la.opaque and la.drift:
                out.append("  (the launch may set more options than shown, e.g. $EXTRA_ARGS: drift may over-report)")
            if la.semantic_checked:
                if la.semantic:
                    out.append(f"  Semantic check: {len(la.semantic)} difference(s) after the fix:")
                    out.extend(f"    {d.message}" for d in la.semantic)
                else:
                    out.append("  Semantic check: the fixed launch sets the same fields to the same values"
                               + (f" (removed outright: {', '.join(la.dropped)})" if la.dropped else ""))
                if la.not_at_from:
                    out.append(f"    not compared, {la.from_version} itself rejects: {', '.join(la.not_at_from)}")
        if fa.diff:
            out.append(f"Fixes `vllm-lint --fix --target-version {report.to_version}` would make "
                       f"({fa.fixes_applied}):")
            out.extend("  " + ln for ln in fa.diff.rstrip("\n").split("\n"))
        if fa.fix_note:
            out.append(f"  fix note: {fa.fix_note}")
        if fa.remaining:
            out.append(f"Left after the fixes ({len(fa.remaining)}):")
            for r in fa.remaining:
                out.append(f"  {visible(fa.path)}:{r.original_line or r.line}: {r.code} {visible(r.message)}")
                out.append(f"    why: {r.reason}")
    for group in report.drift:
        out.append("")
        out += _text_drift(group)
    out.append("")
    out.append(f"Summary: {s['files']} file(s), {s['launches']} launch(es), {s['ready']} ready for "
               f"{report.to_version}; {s['breaks']} break(s) ({s['new_breaks']} new in this upgrade, the rest "
               f"already refused today), {s['ignored']} ignored, {s['deprecated']} deprecated, {s['drift']} default "
               f"drift(s), {s['fixes_applied']} fix(es), {s['remaining']} left after fixing, "
               f"{s['semantic_differences']} semantic difference(s).")
    for pf in s["per_file"]:
        out.append(f"  {pf['path']}: " + (f"error: {pf['error']}" if pf["error"] else
                   f"{pf['launches']} launch(es), {pf['breaks']} break(s), {pf['ignored']} ignored, "
                   f"{pf['deprecated']} deprecated, "
                   f"{pf['drift']} drift, {pf['fixes_applied']} fix(es), {pf['remaining']} left"))
    if s["no_origin"]:
        out.append(f"Not audited ({len(s['no_origin'])}: no release named; --default-from VERSION audits them): "
                   + ", ".join(f"{r['path']}:{r['line']}" for r in s["no_origin"]))
    if s["ready_launches"]:
        out.append("Ready for " + report.to_version + ": "
                   + ", ".join(f"{r['path']}:{r['line']}" for r in s["ready_launches"]))
    return "\n".join(out) + "\n"


def _text_findings(items: list[Finding], la: Optional[LaunchAudit], launches=None) -> list[str]:
    """Findings as the text report lists them (two lines each; drift between empty values on one);
    ``launches``: per finding, the launches it touches when not all of its group."""
    out = []
    for i, f in enumerate(items):
        if f.empty_to_empty:
            continue
        loc = f"line {f.line}: " if f.line else ""
        extra = [x for x in (_fix_text(f), f"history: {f.history}") if x]
        if launches and launches[i]:
            extra.append("in " + ", ".join(f"{visible(p)}:{line}" for p, line in launches[i]))
        out.append(f"    {loc}{f.message}{_already(f, la) if la is not None else ''}")
        out.append(f"      {'; '.join(extra)}")
    empties = [f for f in items if f.empty_to_empty]
    if empties:
        out.append("    between empty values (null, \"\", [], {}; likely cosmetic): "
                   + ", ".join(f"{f.name} ({fmt_value(f.old)} -> {fmt_value(f.new)})" for f in empties))
    return out


def _text_drift(group: DriftGroup) -> list[str]:
    """One (A, B)'s default drift, each change once, with the launches it touches when not all."""
    out = [f"Default drift {group.from_version} -> {group.to_version} (options the launches do not set; "
           f"{len(group.launches)} launch(es)) ({len(group.entries)}):"]
    findings = [e.finding for e in group.entries]
    only = [e.launches if len(e.launches) < len(group.launches) else None for e in group.entries]
    out += _text_findings(findings, None, only)
    if group.opaque:
        out.append("  (a launch may set more options than shown, e.g. $EXTRA_ARGS: drift may over-report)")
    return out


def _md_cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(report: AuditReport) -> str:
    s = report.summary()
    to = report.to_version
    out = _md_summary(report, s)
    for fa in report.files:
        out += _md_file(fa, to)
    for group in report.drift:
        out += _md_drift(group)
    return "\n".join(out).rstrip("\n") + "\n"


def _md_summary(report: AuditReport, s: dict) -> list[str]:
    """The Markdown report's head: the verdict, the counts, one row per file, the launches not
    audited and those already ready."""
    to = report.to_version
    frm = report.from_spec or "each launch's release"
    out = [f"## vLLM upgrade audit: {frm} → {to}", ""]
    verdict = ("**Nothing breaks at " + to + ".**") if not s["breaks"] else \
        f"**{s['breaks']} break(s) at {to}** in {s['launches'] - s['ready']} of {s['launches']} launch(es)."
    out += [verdict, "",
            "| | Count |", "|---|---:|",
            f"| Launches | {s['launches']} |",
            f"| Ready for {to} | {s['ready']} |",
            f"| Breaks | {s['breaks']} |",
            f"| … of which new in this upgrade (the rest already fail at the release each launch runs today) | {s['new_breaks']} |",
            f"| Ignored at {to} (accepted, no longer acting) | {s['ignored']} |",
            f"| Deprecated on the way | {s['deprecated']} |",
            f"| Default drift | {s['drift']} |",
            f"| Fixes `vllm-lint --fix --target-version {to}` makes | {s['fixes_applied']} |",
            f"| Left to do by hand | {s['remaining']} |",
            f"| Semantic differences after fixing | {s['semantic_differences']} |", ""]
    if s["per_file"]:
        out += ["| File | Launches | Breaks | Ignored | Deprecated | Drift | Fixes | Left |",
                "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for pf in s["per_file"]:
            if pf["error"]:
                out.append(f"| `{_md_cell(pf['path'])}` | error: {_md_cell(pf['error'])} | | | | | | |")
            else:
                out.append(f"| `{_md_cell(pf['path'])}` | {pf['launches']} | {pf['breaks']} | {pf['ignored']} | "
                           f"{pf['deprecated']} | "
                           f"{pf['drift']} | {pf['fixes_applied']} | {pf['remaining']} |")
        out.append("")
    if s["no_origin"]:
        out.append(f"Not audited ({len(s['no_origin'])} launch(es) name no vLLM release; `--default-from VERSION` "
                   "audits them from that release): " + ", ".join(f"`{r['path']}:{r['line']}`" for r in s["no_origin"]))
        out.append("")
    if s["ready_launches"]:
        out.append("Already ready for " + to + ": " + ", ".join(f"`{r['path']}:{r['line']}`"
                                                                 for r in s["ready_launches"]))
        out.append("")
    return out


def _md_file(fa: FileAudit, to: str) -> list[str]:
    """One file's section of the Markdown report: its launches, its fixes as a diff, what is left."""
    out = [f"### `{visible(fa.path)}`", ""]
    if fa.error:
        return out + [f"Error: {fa.error}", ""]
    for la in fa.launches:
        out += _md_launch(la, to)
    if fa.diff:
        out += [f"<details><summary>Fixes by <code>vllm-lint --fix --target-version {to}</code> "
                f"({fa.fixes_applied})</summary>", "", "```diff", fa.diff.rstrip("\n"), "```", "", "</details>", ""]
    if fa.remaining:
        out += ["**Left to do by hand**", ""]
        for r in fa.remaining:
            out.append(f"- line {r.original_line or r.line}: {r.code} {_md_cell(r.message)} — _{r.reason}_")
        out.append("")
    return out


def _md_launch(la: LaunchAudit, to: str) -> list[str]:
    """One launch's part of the Markdown report: its breaks, deprecations, default drift and the
    semantic check of the fixed launch."""
    status = "✅ ready" if la.ready else f"❌ {len(la.breaks)} break(s)"
    out = [f"#### Line {la.line}: `{la.entry}`, {la.from_version} → {la.to_version} ({status})", "",
           f"_Release {la.from_version} from {la.from_source}._", ""]
    if la.breaks:
        out += [f"**Breaks at {to}**", ""]
        for f in la.breaks:
            out.append(_md_finding(f, la))
        out.append("")
    if la.ignored:
        out += [f"**Ignored at {to}** (accepted, no longer acting)", ""]
        for f in la.ignored:
            out.append(_md_finding(f, la))
        out.append("")
    if la.deprecated:
        out += ["**Deprecated on the way**", ""]
        for f in la.deprecated:
            out.append(_md_finding(f, la))
        out.append("")
    if la.drift:
        out += [f"Default drift: {len(la.drift)} option(s) this launch does not set"
                + (" (it may set more than shown)" if la.opaque else "")
                + f"; the table for {la.from_version} → {la.to_version} is at the end.", ""]
    if la.semantic_checked:
        if la.semantic:
            out += ["**Semantic check: the fixed launch differs**", ""]
            out += [f"- {_md_cell(d.message)}" for d in la.semantic]
            out.append("")
        else:
            out += ["Semantic check: the fixed launch sets the same fields to the same values"
                    + (f" (removed outright: {', '.join('`' + x + '`' for x in la.dropped)})" if la.dropped else "")
                    + ".", ""]
        if la.not_at_from:
            out += [f"Not compared ({la.from_version} itself rejects them): "
                    + ", ".join(f"`{x}`" for x in la.not_at_from) + ".", ""]
    return out


def _md_drift(group: DriftGroup) -> list[str]:
    """One (A, B)'s default drift as a folded table, each change once (the changes between empty
    values after it); the launches a change touches when not all of the group's."""
    frm, to = group.from_version, group.to_version
    out = [f"### Default drift {frm} → {to}", "",
           f"<details><summary>{len(group.entries)} option(s) that {len(group.launches)} launch(es) do not set"
           + (" (a launch may set more than shown)" if group.opaque else "") + "</summary>", "",
           f"| Option | {frm} | {to} | Changed in | Launches |", "|---|---|---|---|---|"]
    for e in group.entries:
        f = e.finding
        if f.empty_to_empty:
            continue
        a = "(computed)" if f.old_computed else fmt_value(f.old)
        b = "(computed)" if f.new_computed else fmt_value(f.new)
        name = f"`{f.name}`" + (f" → `{f.successor}`" if f.successor else "")
        when = ", ".join(_release_link(c["version"]) for c in f.changes) or _release_link(f.changed_in)
        if not f.statically_known:
            b += " — changed, not statically known"
        where = "all" if len(e.launches) == len(group.launches) else \
            ", ".join(f"`{_md_cell(visible(p))}:{line}`" for p, line in e.launches)
        out.append(f"| {name} | `{_md_cell(a)}` | `{_md_cell(b)}` | {when} | {where} |")
    empties = [e.finding for e in group.entries if e.finding.empty_to_empty]
    if empties:
        out += ["", "Between empty values (likely cosmetic): "
                + ", ".join(f"`{x.name}` (`{_md_cell(fmt_value(x.old))}` → `{_md_cell(fmt_value(x.new))}`)"
                            for x in empties)]
    return out + ["", "</details>", ""]


def _already(f: Finding, la: LaunchAudit) -> str:
    if not f.already_at_from:
        return ""
    if f.category == "deprecated":
        return f" (already deprecated at {la.from_version})"
    if f.category == "ignored":
        return f" (already not read by {la.from_version})"
    return f" (already rejected by {la.from_version})"


def _md_finding(f: Finding, la: LaunchAudit) -> str:
    where = f"line {f.line}: " if f.line else ""
    bits = [f"- {where}{f.message}{_already(f, la)}"]
    if f.changed_in:
        bits.append(f"({'removed' if f.what in ('removed', 'renamed', 'env-removed') else 'changed'} in "
                    f"{_release_link(f.changed_in)})")
    fx = _fix_text(f)
    if fx:
        bits.append(f"— {fx}")
    bits.append(f"— history: `{f.history}`")
    return " ".join(bits)
