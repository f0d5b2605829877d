"""Delimited regions (``{{ ... }}`` template actions, PowerShell's ``<# ... #>`` comments) found in
one pass.

A lazy pattern (``\\{\\{.*?\\}\\}`` with DOTALL) rescans the rest of the text from every opener when
no closer follows, which is quadratic on a line of ``{{``; this scan stops at the first opener
without a closer."""

from __future__ import annotations


TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import AnyStr, Iterator


def delimited(text: AnyStr, opener: AnyStr, closer: AnyStr) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each region of ``text`` from an ``opener`` to the first ``closer`` after
    it (line breaks included), in order and disjoint, as ``re.finditer(opener + ".*?" + closer,
    re.S)`` finds them."""
    i = text.find(opener)
    while i != -1:
        j = text.find(closer, i + len(opener))
        if j == -1:
            return
        yield i, j + len(closer)
        i = text.find(opener, j + len(closer))
