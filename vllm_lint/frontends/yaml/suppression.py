"""Where suppression comments go in YAML: a ``#`` inside a block scalar (``args: |``) is part of
its value, so a comment on the block's header line covers the whole scalar."""

from __future__ import annotations

import re
from typing import Callable, Optional

_BLOCK_HEADER = re.compile(rb"(?:^|:|^\s*-|\s-)\s+[|>][1-9+-]{0,2}\s*(?:#.*)?$")


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


def suppression_rows(index, row0: int) -> list[int]:
    """A comment on a block scalar's header line (``args: |  # vllm-lint: ignore``) covers the
    whole scalar: a ``#`` inside the scalar would be part of its value."""
    header = block_scalar_header(index.line_bytes, row0)
    return [] if header is None else [header]


def comment_placements(lines: list[bytes], idx: int) -> list[int]:
    """A trailing comment on the finding's line, else on its block scalar's header line."""
    from vllm_lint.launch import LineIndex

    header = block_scalar_header(LineIndex(b"".join(lines)).line_bytes, idx)
    return [idx] if header is None else [idx, header]
