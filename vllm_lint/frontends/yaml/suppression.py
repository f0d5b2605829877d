"""Where suppression comments go in YAML. A ``#`` inside a scalar can be part of its value:

* in a block scalar (``args: |``), so a comment on the block's header line covers the whole
  scalar;
* in a plain or quoted scalar that spans lines (``- "vllm serve m`` ... ``--x 1"``), where a
  ``#`` at the end of any line but the last is content (quoted) or ends the scalar (plain). A
  comment at the end of the scalar's last line (after the closing quote) or on a comment line
  right above its first line covers the whole scalar; ``--add-noqa`` writes the former, else the
  latter, never inside. These scalars are found with libyaml's scanner (templates filled first),
  so quotes in comments, block scalars and plain words (``don't``) are read as YAML reads them.

A ``# vllm-lint: ignore`` written inside a plain or quoted scalar is part of its value, not a
comment (:func:`is_comment`), so it suppresses nothing.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Callable, Optional

_BLOCK_HEADER = lazy_re(rb"(?:^|:|^\s*-|\s-)\s+[|>][1-9+-]{0,2}\s*(?:#.*)?$")


def _indent(line: bytes) -> Optional[int]:
    stripped = line.rstrip(b"\r\n")
    if not stripped.strip():
        return None
    return len(stripped) - len(stripped.lstrip(b" \t"))


def block_scalar_header(line_bytes: Callable[[int], bytes], row0: int) -> Optional[int]:
    """The row of the block scalar header (``key: |``, ``- >-``) whose scalar contains row
    ``row0`` (``line_bytes(row)``: a row's bytes), found by walking up to ever less indented
    lines; None when there is none."""
    level = _indent(line_bytes(row0))
    if not level:
        return None
    r = row0 - 1
    while r >= 0:
        line = line_bytes(r)
        ind = _indent(line)
        if ind is not None and ind < level:
            if _BLOCK_HEADER.search(line.rstrip(b"\r\n")):
                return r
            if ind == 0:
                return None
            level = ind
        r -= 1
    return None


@lru_cache(maxsize=8)
def flow_scalar_spans(data: bytes) -> tuple[tuple[int, int], ...]:
    """The byte ranges (start, end) of ``data``'s plain and quoted scalars, in order, as libyaml's
    scanner reads them (templates filled first); those before a scanner error when ``data`` is
    not valid YAML."""
    from vllm_lint import libyaml
    from vllm_lint.frontends.yaml.loader import CodePointOffsets, prepare
    from vllm_lint.launch import ParseError

    try:
        filled, _regions = prepare(data)  # same length: offsets hold
        base = 3 if filled.startswith(b"\xef\xbb\xbf") else 0
        text = filled[base:].decode("utf-8")
    except (ParseError, UnicodeDecodeError):
        return ()
    pos = base.__add__ if text.isascii() else CodePointOffsets(text, base)
    out = []
    try:
        for tok in libyaml.scan(text):
            if type(tok) is libyaml.ScalarToken and tok.style not in ("|", ">"):
                out.append((pos(tok.start_mark.index), pos(tok.end_mark.index)))
    except Exception:  # yaml.YAMLError and friends: keep what was scanned
        pass
    return tuple(out)


@lru_cache(maxsize=8)
def multiline_flow_scalars(data: bytes) -> tuple[tuple[int, int], ...]:
    """(first row, last row), 0-based, of each plain or quoted scalar of ``data`` that spans
    lines."""
    if b"\n" not in data:
        return ()
    starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]
    out = []
    for s, e in flow_scalar_spans(data):
        first = bisect_right(starts, s) - 1
        last = bisect_right(starts, e) - 1
        if last > first:
            out.append((first, last))
    return tuple(out)


def is_comment(data: bytes, offset: int) -> bool:
    """Whether the ``#`` at byte ``offset`` of ``data`` starts a comment: not inside a plain or
    quoted scalar, where it is part of the value (a suppression written there would reach the
    program the value is given to). Inside a block scalar it is the script's own comment."""
    spans = flow_scalar_spans(data)
    k = bisect_right(spans, (offset, float("inf"))) - 1
    return not (k >= 0 and spans[k][0] <= offset < spans[k][1])


def enclosing_scalar_rows(data: bytes, row0: int) -> Optional[tuple[int, int]]:
    """The rows (first, last) of the multi-line plain or quoted scalar(s) holding row ``row0``
    (chained: a scalar that ends on the line where the next starts, as in a flow sequence, joins
    it), or None when no such scalar touches the row."""
    spans = multiline_flow_scalars(data)
    if not spans:
        return None
    lo = hi = row0
    changed = True
    while changed:
        changed = False
        for first, last in spans:
            if first <= hi < last:
                hi, changed = last, True
            if first < lo <= last:
                lo, changed = first, True
    return None if lo == hi == row0 else (lo, hi)


def suppression_rows(index, row0: int) -> list[int]:
    """A comment on a block scalar's header line (``args: |  # vllm-lint: ignore``) covers the
    whole scalar; so does one at the end of a multi-line plain or quoted scalar's last line, or
    on a comment line right above its first."""
    header = block_scalar_header(index.line_bytes, row0)
    if header is not None:
        return [header]
    if not index.mentions_tool:
        return []
    around = enclosing_scalar_rows(index.data, row0)
    if around is None:
        return []
    first, last = around
    rows = [last]
    if first > 0 and index.line_bytes(first - 1).lstrip().startswith(b"#"):
        rows.append(first - 1)
    return rows


def comment_placements(lines: list[bytes], idx: int) -> list[int]:
    """A trailing comment on the finding's line, else on its block scalar's header line; for a
    line of a multi-line plain or quoted scalar, only at the end of the scalar's last line."""
    from vllm_lint.launch import LineIndex

    data = b"".join(lines)
    around = enclosing_scalar_rows(data, idx)
    if around is not None:
        return [around[1]]
    header = block_scalar_header(LineIndex(data).line_bytes, idx)
    return [idx] if header is None else [idx, header]


def comment_line_row(lines: list[bytes], idx: int) -> Optional[int]:
    """The row above which a comment line for row ``idx`` may go: a multi-line plain or quoted
    scalar's first row (a line inserted inside it would be content)."""
    around = enclosing_scalar_rows(b"".join(lines), idx)
    return idx if around is None else around[0]
