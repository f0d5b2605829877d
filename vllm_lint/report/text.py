"""ruff-style text output.

``text`` (the default, ruff's "full"): each finding's line ``path:row:col: CODE [*] severity: message
[vllm X.Y.Z]``, then the source lines around it with carets under the span, and the fix's title
(``help: Rename to ...``) when the finding has a fix. ``concise``: the first line only, without the
release. The severity is a word in both, so it shows without colour. A closing summary follows
(:func:`summary_lines`, one list so that further lines can join it).
"""

from __future__ import annotations

import re
from collections import Counter

from . import ReportContext, masked, visible
from ..record import screened_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Callable, Iterator, Optional

_COLORS = {"error": "\033[31m", "warning": "\033[33m", "info": "\033[36m"}
_BOLD, _BLUE, _RESET = "\033[1m", "\033[34m", "\033[0m"
CONTEXT_LINES = 2  # source lines shown before and after a finding's line, as ruff shows
TAB = 4
MAX_WIDTH = 160  # columns of source a snippet shows; a longer line (a minified file) is cut around the span
LEAD = 40  # columns kept before the span's start when a line is cut
CUT = "…"


def header(d, ctx: ReportContext, with_release: bool = True) -> str:
    """A finding's first line: ``path:row:col: CODE [*] severity: message``."""
    code, severity = d.code, d.severity
    mark = " [*]" if d.fix_applies(ctx.unsafe_fixes) else ""
    loc = f"{visible(d.path)}:{d.row}:{d.column}:"
    if ctx.color:
        loc = f"{_BOLD}{loc}{_RESET}"
        tint = _COLORS.get(d.severity, "")
        code = f"{tint}{_BOLD}{code}{_RESET}"
        severity = f"{tint}{severity}{_RESET}"
    line = f"{loc} {code}{mark} {severity}: {visible(d.message)}"
    if with_release and d.target_version and d.code != "VL001":
        line += f" [vllm {d.target_version}]"
    if d.fix_blocked:
        line += f" (fix not applied: {visible(d.fix_blocked)})"
    return line


def snippet(d, lines: list[str], ctx: ReportContext) -> list[str]:
    """The source around ``d`` with carets under its span (rows of ``lines``, 1-based); empty for a
    finding with no place in the file (an unreadable file)."""
    if d.span is None or not lines or not 1 <= d.row <= len(lines):
        return []
    first, last = max(1, d.row - CONTEXT_LINES), min(len(lines), d.row + CONTEXT_LINES)
    width = len(str(last))
    pad = " " * width
    bar = f"{_BLUE}{_BOLD}|{_RESET}" if ctx.color else "|"
    out = [f"{pad} {bar}"]
    texts = {row: visible(lines[row - 1].expandtabs(TAB)) for row in range(first, last + 1)}
    raw = lines[d.row - 1]  # the span's columns on its own line, in displayed characters
    start = len(visible(raw[:max(0, d.column - 1)].expandtabs(TAB)))
    if d.end_row == d.row and d.end_column > d.column:
        end = len(visible(raw[:d.end_column - 1].expandtabs(TAB)))
    else:  # a span running on to later lines: up to the end of this one
        end = max(len(texts[d.row]), start + 1)
    # one horizontal window for every line shown, so that the columns stay aligned
    lo = 0 if max(len(t) for t in texts.values()) <= MAX_WIDTH else max(0, start - LEAD)
    hi = lo + MAX_WIDTH
    for row in range(first, last + 1):
        text = texts[row]
        if lo or len(text) > hi:
            text = (CUT if lo else "") + text[lo:hi] + (CUT if len(text) > hi else "")
        num = f"{row:>{width}}"
        if ctx.color:
            num = f"{_BLUE}{_BOLD}{num}{_RESET}"
        out.append(f"{num} {bar} {text}".rstrip())
        if row == d.row:
            shift = lo - (len(CUT) if lo else 0)  # (the cut mark takes the first shown column)
            a, b = max(start, lo) - shift, min(max(end, start + 1), hi) - shift
            carets = "^" * max(1, b - a)
            if ctx.color:
                carets = f"{_COLORS.get(d.severity, '')}{_BOLD}{carets}{_RESET}"
            out.append(f"{pad} {bar} {' ' * a}{carets}")
    out.append(f"{pad} {bar}")
    if d.fix is not None and d.fix.message:
        out.append(f"help: {visible(d.fix.message)}")
    if _FOREIGN_NOQA.search(lines[d.row - 1]):
        out.append(f"note: vllm-lint does not read `# noqa`; suppress with `# vllm-lint: ignore[{d.code}]`")
    return out


# flake8's and ruff's suppression comment, which users reach for out of habit; vllm-lint's is
# ``# vllm-lint: ignore[...]`` (README "Suppressing findings")
_FOREIGN_NOQA = screened_re(r"#\s*noqa\b", re.IGNORECASE)  # (screened: most lines name no noqa)


def _registry() -> dict:
    from ..rules.base import registry

    return registry()


def source_lines(results, ctx: ReportContext, keep: bool = True) -> Callable[[str], list[str]]:
    """Path -> its lines as text (``fingerprints.lines_of``; ``keep``: each file's kept once read)."""
    from .fingerprints import lines_of

    return lines_of(results, ctx.sources, keep)


def statistics_rows(diags, ctx: ReportContext) -> list[tuple[str, int, bool, str]]:
    """(code, count, any fixable, rule name), most frequent first: ``--statistics``."""
    from ..rules.base import registry

    counts = Counter(d.code for d in diags)
    fixable = Counter(d.code for d in diags if d.fix_applies(ctx.unsafe_fixes))
    reg = ctx.rules or registry()
    return [(code, n, bool(fixable.get(code)), reg[code].name if code in reg else "")
            for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def summary_lines(diags, ctx: ReportContext) -> list[str]:
    """The closing summary: how many findings, how many fixed, what --fix and --unsafe-fixes would do."""
    n = len(diags)
    fixable_n = sum(1 for d in diags if d.fix_applies(ctx.unsafe_fixes))
    unsafe_n = sum(1 for d in diags if d.fix is not None and d.fix.applicability == "unsafe" and not ctx.unsafe_fixes)
    by = Counter(d.severity for d in diags)
    kinds = ", ".join(f"{by[s]} {s}{'s' if by[s] != 1 and s != 'info' else ''}" for s in _RANK_ORDER if by[s])
    summary = []
    if ctx.fix_mode and ctx.fixed_count:
        summary.append(f"Found {n + ctx.fixed_count} problem{'s' if n + ctx.fixed_count != 1 else ''} "
                       f"({ctx.fixed_count} fixed, {n} remaining{': ' + kinds if kinds else ''}).")
    elif n:
        summary.append(f"Found {n} problem{'s' if n != 1 else ''} ({kinds}).")
    elif not ctx.no_launch:
        summary.append("All checks passed!")
    below = sum(by[s] for s in _RANK_ORDER if _RANK[s] < _RANK.get(ctx.fail_on, 1))
    if below:
        summary.append(f"({below} below the --fail-on {ctx.fail_on} threshold, which do not fail the run.)")
    if fixable_n and not ctx.fix_mode:
        summary.append(f"[*] {fixable_n} fixable with the `--fix` option.")
    if unsafe_n:
        summary.append(f"({unsafe_n} hidden fix{'es' if unsafe_n != 1 else ''} can be enabled with the `--unsafe-fixes` option.)")
    if ctx.reading_note:
        summary.append(ctx.reading_note)
    return summary


_RANK = {"info": 0, "warning": 1, "error": 2}
_RANK_ORDER = ("error", "warning", "info")


def render(results, ctx: ReportContext, concise: bool = False) -> str:
    return "".join(render_chunks(results, ctx, concise))


def render_chunks(results, ctx: ReportContext, concise: bool = False) -> Iterator[str]:
    """The report in pieces, each finding's as it is made (``render`` joins them): a run's report
    is written as it goes, and the full format holds one file's lines at a time, not every
    file's with findings."""
    diags = [d for r in results for d in r.diagnostics]
    if ctx.statistics:
        for code, n, fixable, name in statistics_rows(diags, ctx):
            yield f"{n:>5}\t{code}\t{'[*]' if fixable else '   '} {name}\n"
    elif concise:
        for d in diags:
            yield header(d, ctx, with_release=False) + "\n"
    else:
        source = source_lines(results, ctx, keep=False)
        rules = ctx.rules or _registry()
        by_path: dict[str, list] = {}
        for d in diags:
            by_path.setdefault(d.path, []).append(d)
        current: Optional[str] = None
        shown_lines: list[str] = []  # the current path's lines, secrets masked (``report.masked``)
        for d in diags:
            if d.span is None:  # (a finding with no place, an unreadable file: its path is not read)
                yield header(d, ctx) + "\n"
                continue
            if d.path != current:  # (a file's findings come together: its lines are read once)
                current, shown_lines = d.path, masked(source(d.path), by_path[d.path], rules)
            shown = snippet(d, shown_lines, ctx)
            yield "\n".join([header(d, ctx), *shown, ""]) + "\n" if shown else header(d, ctx) + "\n"
    if not ctx.quiet:
        yield "\n".join(summary_lines(diags, ctx)) + "\n"


def render_concise(results, ctx: ReportContext) -> str:
    """One line per finding (``--output-format concise``)."""
    return render(results, ctx, concise=True)


def render_concise_chunks(results, ctx: ReportContext) -> Iterator[str]:
    return render_chunks(results, ctx, concise=True)
