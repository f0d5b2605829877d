"""Suppression comments, in one place: the comment syntax, which findings cannot be suppressed,
which comment applies to which finding, and the scan for comments that suppress nothing (VL003).

``# vllm-lint: ignore[CODES]`` (or a blanket ``# vllm-lint: ignore``) applies to findings on its
own line, and a standalone comment line applies to the line right below it; ``# vllm-lint:
ignore-file`` anywhere skips the file. So that every line can be suppressed without changing
what the file means (``--add-noqa``: ``vllm_lint.pipeline.noqa`` chooses among the placements made here
and verifies each):

* a command continued with trailing backslashes is one logical line: a standalone comment line
  right above its first line covers all of it (a comment cannot follow a backslash, and a
  comment line inside the command would end it);
* a format adds the rows its own syntax needs (``Format.suppression_rows``: YAML's block scalar
  header, ``args: |  # vllm-lint: ignore``, covers the whole scalar);
* a format says which ``#`` start a comment (``Format.is_comment``): one inside a YAML quoted or
  plain scalar is part of the value, and suppresses nothing.

``per-file-ignores`` switch codes off by path. VL001 (the file could not be read) and VL003 (a
suppression comment that suppresses nothing) cannot be suppressed by a comment.
"""

from __future__ import annotations

import re

from ..launch import LineIndex, Span
from ..record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Optional

SUPPRESS = lazy_re(rb"#\s*vllm-lint:\s*ignore(?:\[([A-Za-z0-9_,\s]+)\])?(?!-)")
SUPPRESS_FILE = lazy_re(rb"#\s*vllm-lint:\s*ignore-file(?:\[([A-Za-z0-9_,\s]+)\])?(?![\w-])")
UNSUPPRESSIBLE = ("VL001", "VL003")

Used = set  # of (row0 of a comment, code or None for a blanket comment) that matched a finding


def named_codes(match: "re.Match[bytes]") -> Optional[list[str]]:
    """The codes a suppression comment names, upper case; None for a blanket comment."""
    codes = match.group(1)
    if codes is None:
        return None
    return [c.strip().upper() for c in codes.decode().split(",") if c.strip()]


def file_ignores(data: bytes, fmt: Any = None):
    """What the file's ``# vllm-lint: ignore-file`` comments switch off: True (everything: a bare
    comment), the codes named in brackets (``ignore-file[VL101,VL2]``, upper case), or None.
    ``fmt`` (the file's ``frontends.base.Format``) says which ``#`` are comments."""
    if b"vllm-lint" not in data:
        return None
    codes: list[str] = []
    for m in SUPPRESS_FILE.finditer(data):
        if fmt is not None and not fmt.is_comment(data, m.start()):
            continue  # part of a value (a YAML string), not a comment
        named = named_codes(m)
        if named is None:
            return True
        codes += named
    return codes or None


def skips_file(data: bytes, fmt: Any = None) -> bool:
    """Whether ``data`` holds a bare ``ignore-file`` comment (one naming codes is applied per finding)."""
    return file_ignores(data, fmt) is True


def suppression_at(index: LineIndex, row0: int, fmt: Any = None) -> "Optional[re.Match[bytes]]":
    """The suppression comment on row ``row0``: the first match that is a comment of the format
    ``fmt`` (a ``frontends.base.Format`` or None), not part of a value written there."""
    line = index.line_bytes(row0)
    for m in SUPPRESS.finditer(line):
        if fmt is None or fmt.is_comment(index.data, index.starts[row0] + m.start()):
            return m
    return None


def ignored_by_path(code: str, path: str, per_file_ignores: dict[str, list[str]], base: Optional[str] = None) -> bool:
    """Whether ``per-file-ignores`` switches ``code`` off in ``path``. Patterns are read relative to
    ``base``, the folder of the configuration file that holds them (default: the working
    directory), whatever folder vllm-lint runs from; a pattern also matches at any depth below
    it, and one without a ``/`` matches the file name."""
    import fnmatch  # (only a run with per-file-ignores pays for it)
    import os
    from pathlib import PurePath

    full = os.path.abspath(path)
    try:
        rel = PurePath(os.path.relpath(full, os.path.abspath(base or os.getcwd()))).as_posix()
    except ValueError:  # another drive
        rel = PurePath(full).as_posix()
    name = os.path.basename(full)
    for pattern, codes in per_file_ignores.items():
        pat = pattern[2:] if pattern.startswith("./") else pattern
        if fnmatch.fnmatch(rel, pat) or fnmatch.fnmatch(rel, "*/" + pat) or ("/" not in pat and fnmatch.fnmatch(name, pat)):
            if any(code.startswith(c.upper()) for c in codes):
                return True
    return False


def comment_rows(index: LineIndex, row0: int, fmt: Any = None) -> Iterable[int]:
    """The rows whose suppression comment applies to a finding on row ``row0``, in order: its
    own, a standalone comment line right above, the comment line above a backslash-continued
    command's first line, then what the format ``fmt`` (a ``frontends.base.Format`` or None)
    adds (asked only when no earlier row matched)."""
    yield from _line_rows(index, row0)
    if fmt is not None:
        yield from fmt.suppression_rows(index, row0)


def _line_rows(index: LineIndex, row0: int) -> list[int]:
    rows = [row0]
    if row0 > 0 and index.line_bytes(row0 - 1).lstrip().startswith(b"#"):
        rows.append(row0 - 1)
    first = row0
    while first > 0 and index.line_bytes(first - 1).rstrip().endswith(b"\\"):
        first -= 1
    if first != row0 and first > 0 and index.line_bytes(first - 1).lstrip().startswith(b"#"):
        rows.append(first - 1)
    return rows


def suppressed(d: Any, index: LineIndex, fmt: Any = None, per_file_ignores: Optional[dict[str, list[str]]] = None,
               used: Optional[Used] = None, base: Optional[str] = None, comments: bool = True) -> bool:
    """Whether the placed finding ``d`` is switched off by ``per_file_ignores`` (read relative to
    ``base``) or by a suppression comment in the file ``index`` shows (as format ``fmt``; none
    with ``comments=False``: ``--ignore-noqa``). When ``used`` is given, the (comment row, code)
    pairs that matched are added to it."""
    if per_file_ignores and ignored_by_path(d.code, d.path, per_file_ignores, base):
        return True
    if d.code in UNSUPPRESSIBLE or not comments or not index.mentions_tool:
        return False
    whole = index.__dict__.get("file_ignores", ())
    if whole == ():
        whole = index.file_ignores = file_ignores(index.data, fmt)
    if whole is True or (whole and any(d.code.startswith(c) for c in whole)):
        return True
    row0 = d.row - 1
    if row0 < 0 or row0 >= len(index.starts):
        return False
    for r in comment_rows(index, row0, fmt):
        m = suppression_at(index, r, fmt)
        if m:
            wanted = named_codes(m)
            if wanted is None:
                if used is not None:
                    used.add((r, None))
                return True
            hit = [c for c in wanted if d.code.startswith(c)]
            if hit:
                if used is not None:
                    used.update((r, c) for c in hit)
                return True
    return False


def unused_suppressions(index: LineIndex, used: Used, enabled: Iterable[str], known: Iterable[str],
                        path: str, code: str = "VL003", severity: str = "warning", fmt: Any = None) -> list[Any]:
    """VL003's findings: each suppression comment in the file ``index`` shows (as format ``fmt``)
    that suppressed nothing, or whose codes match no finding (``used``: what matched, from
    ``suppressed``) or no rule (``known``). Codes of rules not ``enabled`` in this run are left
    alone: they may suppress findings in a run that selects them."""
    from ..rules.base import Diagnostic

    known = set(known)
    enabled = [k for k in enabled if k not in UNSUPPRESSIBLE]
    out = []
    for row0 in range(len(index.starts)):
        line = index.line_bytes(row0)
        m = suppression_at(index, row0, fmt) if b"vllm-lint" in line else None
        if not m:
            continue
        start = index.starts[row0]
        span = Span(start + m.start(), start + len(line.rstrip(b"\r\n")))
        wanted = named_codes(m)
        if wanted is None:
            if (row0, None) not in used:
                out.append(Diagnostic(code, "unused suppression comment (it suppresses nothing)", path, span,
                                      severity=severity))
            continue
        unused, unknown = [], []
        for c in wanted:
            if (row0, c) in used:
                continue
            if not any(k.startswith(c) for k in known):
                unknown.append(c)
            elif any(k.startswith(c) for k in enabled):
                unused.append(c)
        if unused or unknown:
            parts = ([f"unused: {', '.join(unused)}"] if unused else []) \
                + ([f"unknown: {', '.join(unknown)}"] if unknown else [])
            whole = len(unused) + len(unknown) == len(wanted)
            what = "unused suppression comment" if whole else "suppression comment names codes it does not need"
            out.append(Diagnostic(code, f"{what} ({'; '.join(parts)})", path, span, severity=severity))
    return out


def merge_codes(line: bytes, codes: list[str], comment_at: Optional[Callable[[int], bool]] = None) -> Optional[bytes]:
    """``line`` with ``codes`` added to its suppression comment; None if it has none
    (``comment_at(i)``: whether the ``#`` at byte ``i`` of the line starts a comment)."""
    m = next((m for m in SUPPRESS.finditer(line) if comment_at is None or comment_at(m.start())), None)
    if not m:
        return None
    have = named_codes(m)
    if have is None:
        return line  # blanket already
    merged = sorted(set(have) | set(codes))
    return line[:m.start()] + comment(merged) + line[m.end():]


def comment(codes: list[str]) -> bytes:
    """The suppression comment for ``codes``."""
    return b"# vllm-lint: ignore[" + ",".join(sorted(set(codes))).encode() + b"]"


# ----------------------------------------------------------------------------- placement


def lines_of(data: bytes) -> list[bytes]:
    """``data``'s lines with their line ends (one empty line for empty bytes), as placement sees them."""
    return data.splitlines(keepends=True) or [b""]


def _eol(line: bytes) -> bytes:
    if line.endswith(b"\r\n"):
        return b"\r\n"
    if line.endswith(b"\n"):
        return b"\n"
    return b""


def trailing_comment(lines: list[bytes], idx: int, codes: list[str],
                     comment_at: Optional[Callable[[int], bool]] = None) -> Optional[list[bytes]]:
    """``lines`` with a comment for ``codes`` at the end of line ``idx`` (merged into one already
    there: ``comment_at`` as for :func:`merge_codes`); None where a trailing comment cannot go (a
    continued line, a blank line)."""
    line = lines[idx]
    eol = _eol(line)
    body = line[: len(line) - len(eol)]
    if body.rstrip().endswith(b"\\") or not body.strip():
        return None
    merged = merge_codes(line, codes, comment_at)
    if merged is not None:
        new = merged
    else:
        new = body.rstrip(b" \t") + b"  " + comment(codes) + eol
    return lines[:idx] + [new] + lines[idx + 1:]


def _anchor(lines: list[bytes], idx: int) -> int:
    """First line of the backslash-continued command containing line ``idx``."""
    while idx > 0 and lines[idx - 1].rstrip().endswith(b"\\"):
        idx -= 1
    return idx


def comment_line_above(lines: list[bytes], idx: int, codes: list[str], lo: int = 0) -> Optional[tuple[list[bytes], int]]:
    """A comment line above the first line of the command containing ``idx`` (or the comment
    already there, extended); returns the new lines and the 0-based row inserted at (or -1)."""
    a = _anchor(lines, idx)
    if a < lo:
        return None
    if a > lo and lines[a - 1].lstrip().startswith(b"#"):
        merged = merge_codes(lines[a - 1], codes)
        if merged is not None:
            return lines[:a - 1] + [merged] + lines[a:], -1
    anchor = lines[a]
    indent = anchor[: len(anchor) - len(anchor.lstrip(b" \t"))]
    eol = _eol(anchor) or (_eol(lines[0]) or b"\n")
    return lines[:a] + [indent + comment(codes) + eol] + lines[a:], a
