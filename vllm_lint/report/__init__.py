"""Reporters: they know diagnostics only. Each output format is a row of ``base.REPORTERS`` (its
name, its module and the function there, ``function(results, ctx) -> str``)."""

from __future__ import annotations

from ..fsutil import visible  # noqa: F401  (the reporters' escaping of names and messages)
from ..record import Record, import_module

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Iterable, Optional


class ReportContext(Record):
    """``rules``: code -> Rule, for formats carrying rule metadata; ``no_launch``: no file held a
    vLLM launch (the text summary never says "All checks passed!" then); ``reading_note``: what was
    not read, for the text summary (machine formats leave it to stderr)."""

    __slots__ = ("fix_mode", "unsafe_fixes", "fixed_count", "statistics", "quiet", "color", "db_range", "rules",
                 "no_launch", "reading_note", "fail_on", "sources", "docs_url")

    def __init__(self, fix_mode: bool = False, unsafe_fixes: bool = False, fixed_count: int = 0,
                 statistics: bool = False, quiet: bool = False, color: bool = False, db_range: Optional[str] = None,
                 rules: Optional[dict] = None, no_launch: bool = False, reading_note: Optional[str] = None,
                 fail_on: str = "warning", sources: Optional[dict] = None, docs_url: Optional[str] = None) -> None:
        self.fix_mode = fix_mode
        self.unsafe_fixes = unsafe_fixes
        self.fixed_count = fixed_count
        self.statistics = statistics
        self.quiet = quiet
        self.color = color
        self.db_range = db_range
        self.rules = rules
        self.no_launch = no_launch
        self.reading_note = reading_note
        self.fail_on = fail_on  # the lowest severity that fails the run (the summary says what is below it)
        self.sources = sources  # path -> bytes for findings in no file on disk (standard input)
        self.docs_url = docs_url  # where the rule pages are published (--docs-url): rule links


def masked(lines: list[str], diags, rules: dict) -> list[str]:
    """``lines`` (a file's, 1-based rows) with the span of each finding of a ``secret`` rule (VL501:
    a token or API key written in plain text) replaced by ``*``, one for each character, so that
    columns and carets stay where they were. The one place a report hides a secret: the text
    format's source snippet is the only output that quotes a file's lines."""
    hidden = [d for d in diags if d.span is not None and getattr(rules.get(d.code), "secret", False)]
    if not hidden:
        return lines
    out = list(lines)
    for d in hidden:
        last = d.end_row if d.end_row and d.end_row >= d.row else d.row
        for row in range(max(1, d.row), min(last, len(out)) + 1):
            line = out[row - 1]
            a = d.column - 1 if row == d.row else 0
            if row == last and (last > d.row or d.end_column > d.column):
                b = d.end_column - 1
            else:  # a row the span runs past (or a span with no width: the rest of its line)
                b = len(line)
            a, b = max(0, a), min(len(line), b)
            if b > a:
                out[row - 1] = line[:a] + "*" * (b - a) + line[b:]
    return out


def render(output_format: str, results, ctx: ReportContext) -> str:
    """The report in the output format named ``output_format`` (a name or alias of ``base.REPORTERS``)."""
    return _function(output_format, False)(results, ctx)


def render_chunks(output_format: str, results, ctx: ReportContext) -> Iterable[str]:
    """The same report in pieces to write one after the other (``Reporter.chunks``; one piece for
    a format that renders whole)."""
    function = _function(output_format, True)
    if function is not None:
        return function(results, ctx)
    return (_function(output_format, False)(results, ctx),)


def _function(output_format: str, chunks: bool):
    from .base import get

    reporter = get(output_format)
    if reporter is None:
        raise ValueError(f"no output format {output_format!r}")
    name = reporter.chunks if chunks else reporter.function
    return None if name is None else getattr(import_module(f"{__name__}.{reporter.module}"), name)
