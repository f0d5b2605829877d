"""``--add-noqa``: write a suppression comment for every finding, so a repository can adopt
vllm-lint and see only new findings from then on (ruff's ``--add-noqa``).

Each comment is ``# vllm-lint: ignore[CODES]`` with the codes found on that line, placed where the
format can take a comment without changing what the file means:

* at the end of the finding's line (shell, Python, YAML, fenced blocks in Markdown), merged into
  a suppression comment already there;
* for a line of a YAML block scalar (``args: |``), at the end of the scalar's header line: a ``#``
  inside the scalar would become part of its value; for a line of a multi-line plain or quoted
  YAML scalar, after its last line (the closing quote), else on a comment line above its first;
* otherwise on a standalone comment line inserted right above the first line of the command
  (a line ending in a backslash cannot take a trailing comment, and a comment line inside a
  continued command would end it); always so for Dockerfiles, where ``#`` starts a comment only
  at the beginning of a line (``CMD ["vllm", ...]  # x`` would no longer be JSON).

Every placement is checked before it is kept: the file must still parse as it did, must mean
the same (the same YAML data, the same Python AST, the same shell tokens apart from comments, the
same launches, options and environment), and re-linting it must show exactly the findings that
were there minus the ones suppressed. A line where no placement passes is left untouched and
reported. Findings that cannot be suppressed by a comment (VL001) are never touched.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from .suppress import UNSUPPRESSIBLE, comment_line_above as _standalone, lines_of as _lines, trailing_comment as _trailing


@dataclass
class NoqaResult:
    path: str
    data: bytes
    new: bytes
    added: int = 0  # comments written or extended
    failed: list[tuple[int, str, str]] = field(default_factory=list)  # (row, codes, reason), rows of the new bytes


# ------------------------------------------------------------------------------ equivalence


def _signature(extraction) -> Any:
    if extraction is None:
        return None

    def env(e):
        return (e.name, e.value, e.value_opaque)

    sig = []
    for ln in extraction.launches:
        sig.append((ln.entry, ln.style, tuple(t.text for t in ln.tokens), tuple(t.text for t in ln.dropped),
                    tuple((k.key, repr(k.value)) for k in ln.keyed), tuple(env(e) for e in ln.env),
                    tuple(h.version for h in ln.version_hints), ln.opaque))
    return (tuple(sig), tuple(env(e) for e in extraction.env), tuple(h.version for h in extraction.version_hints))


# ------------------------------------------------------------------------------ driver


class _State:
    def __init__(self, linter, path: Path, data: bytes, fmt: str, mode: str, forced):
        # (the bytes of a linted file, with comments added: screened by its lint)
        checked = linter.check(path, data, mode, fmt=fmt, screened=True, forced=forced)
        self.data = data
        self.diags = checked.diagnostics
        self.signature = _signature(checked.analysis.extraction)
        self.parse_error = any(d.code == "VL001" for d in self.diags)

    def counter(self) -> Counter:
        return Counter((d.code, d.message, d.option) for d in self.diags)


def _comment_at(fmt: Any, own: list[bytes], r: int):
    """Whether a ``#`` at a byte of line ``r`` of the text ``own`` (its lines) starts a comment
    of the format ``fmt`` (a suppression comment inside a YAML string is part of the string)."""
    base = sum(len(line) for line in own[:r])
    return lambda i: fmt.is_comment(b"".join(own), base + i)


def add_to_bytes(linter, path: Path, data: bytes, fmt: str, rows: Optional[set[int]] = None, *,
                 mode: str = "auto", forced: Optional[tuple[str, str]] = None) -> NoqaResult:
    """Suppression comments for the findings in ``data`` (only those on ``rows``, 1-based, when
    given: an editor's "suppress on this line"), the file read as the lint read it (``mode``,
    ``forced``: ``Linter.analyse``)."""
    from ..frontends.base import get as format_unit

    unit = format_unit(fmt)
    res = NoqaResult(str(path), data, data)
    state = _State(linter, path, data, fmt, mode, forced)
    if state.parse_error:
        return res
    failed_rows: set[int] = set()
    for _ in range(10000):
        todo = [d for d in state.diags if d.code not in UNSUPPRESSIBLE and d.row - 1 not in failed_rows
                and (rows is None or d.row in rows)]
        if not todo:
            break
        row = max(d.row for d in todo)
        idx = row - 1
        targets = [d for d in todo if d.row == row]
        codes = sorted({d.code for d in targets})
        want = state.counter() - Counter((d.code, d.message, d.option) for d in targets)
        lines = _lines(state.data)
        inner, lo, hi = unit, 0, len(lines)
        block = None
        if unit.holds_others():
            # a format that holds others takes comments only inside the text it embeds
            block = unit.embedded_at(state.data, idx)
            if block is None:
                res.failed.append((row, ",".join(codes), "not inside a fenced code block that takes # comments"))
                failed_rows.add(idx)
                continue
            inner, lo, hi = format_unit(block[0]), block[1], block[2]
        # the embedded format sees only its own text (rows relative to it)
        own = lines[lo:hi]
        candidates: list[tuple[Optional[list[bytes]], int]] = [
            (_trailing(lines, lo + r, codes, _comment_at(inner, own, r)), -1)
            for r in inner.comment_placements(own, idx - lo)]
        above = inner.comment_line_row(own, idx - lo)
        st = None if above is None else _standalone(lines, lo + above, codes, lo)
        if st is not None:
            candidates.append(st)
        new_state, inserted_at, reason = _first_placement(
            candidates, state, want, functools.partial(_meaning_problem, unit, inner, block, lines, state.data),
            lambda cand: _State(linter, path, cand, fmt, mode, forced))
        if new_state is None:
            res.failed.append((row, ",".join(codes), reason))
            failed_rows.add(idx)
            continue
        state = new_state
        res.added += 1
        if inserted_at >= 0:
            failed_rows = {r + 1 if r >= inserted_at else r for r in failed_rows}
            res.failed = [(r + 1 if r - 1 >= inserted_at else r, c, why) for r, c, why in res.failed]
    res.new = state.data
    res.failed = sorted(res.failed)  # rows of the new bytes
    return res


def _meaning_problem(unit, inner, block: Optional[tuple[str, int, int]], lines: list[bytes], data: bytes,
                     cand: bytes, new_lines: list[bytes], inserted_at: int) -> Optional[str]:
    """Why ``cand`` (``data`` with a comment placed: ``new_lines``) would not mean what ``data``
    means, or None: it must pass the format's parse check and read the same, in the embedded
    text (``block``: its format and rows, ``inner`` its format) where the comment went into one."""
    problem = unit.parse_check(data, cand)
    if problem is None:
        if block is not None:
            before = b"".join(lines[block[1]:block[2]])
            after_end = block[2] + (1 if inserted_at >= 0 else 0)
            problem = inner.same_meaning(before, b"".join(new_lines[block[1]:after_end]))
        else:
            problem = unit.same_meaning(data, cand)
    return problem


def _first_placement(candidates: list[tuple[Optional[list[bytes]], int]], state: _State, want: Counter,
                     meaning_problem, analyse) -> tuple[Optional[_State], int, str]:
    """(the analysis of the file with the first placement that works, the row it inserted or -1,
    why the last one tried did not work): a placement works when the file keeps its meaning
    (``meaning_problem``), its launches and the findings it had except the targets (``want``)."""
    reason = "no placement keeps the file's meaning"
    for new_lines, inserted_at in candidates:
        if new_lines is None:
            continue
        cand = b"".join(new_lines)
        if cand == state.data:
            continue
        problem = meaning_problem(cand, new_lines, inserted_at)
        if problem is not None:
            reason = problem
            continue
        new_state = analyse(cand)
        if new_state.signature != state.signature:
            reason = "the launches would change"
            continue
        now = new_state.counter()
        # nothing new may appear and every target must go; a comment merged above a command
        # may also cover other suppressible findings of that command, which is the goal anyway
        if now - want or any(k[0] in UNSUPPRESSIBLE for k in want - now):
            reason = "the comment would not suppress exactly these findings"
            continue
        return new_state, inserted_at, reason
    return None, -1, reason


def add_noqa(linter, results) -> list[NoqaResult]:
    """Suppress every suppressible finding in ``results`` by writing comments into the files.
    Returns one ``NoqaResult`` per file that had findings; the caller writes ``new``."""
    from ..fsutil import read_regular
    from .engine import MAX_FILE_BYTES

    out = []
    for r in results:
        if not any(d.code not in UNSUPPRESSIBLE for d in r.diagnostics):
            continue
        p = Path(r.path)
        try:  # (a regular file, bounded: it was one when linted, but may have been replaced since)
            data = read_regular(p, MAX_FILE_BYTES)
        except OSError as e:
            nr = NoqaResult(r.path, b"", b"")
            nr.failed.append((1, "", f"cannot read the file: {e.strerror or e}"))
            out.append(nr)
            continue
        mode = r.mode or "auto"
        fmt = r.format
        if fmt is None:  # a result the cache answered without reading the file
            fmt, skipped = linter.screen(p, data, mode)
            if skipped is not None:
                continue
        from ..frontends.base import get as format_unit

        if getattr(format_unit(fmt).module, "COMMENTS", True) is False:
            # JSON has no comments: a baseline or per-file-ignores can hide these findings
            nr = NoqaResult(r.path, data, data)
            nr.failed.append((1, ",".join(sorted({d.code for d in r.diagnostics if d.code not in UNSUPPRESSIBLE})),
                              f"{fmt} files have no comments (use --baseline or per-file-ignores)"))
            out.append(nr)
            continue
        out.append(add_to_bytes(linter, p, data, fmt, mode=mode, forced=r.forced))
    return out

