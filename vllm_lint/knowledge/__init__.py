"""Knowledge the anti-pattern rules (VL3xx/VL4xx/VL5xx) build on: model facts (``models``), the
launch's GPUs (``hardware``) and its parallel layout and settings (``layout``).

Nothing here touches the network unless ``--online`` is given; the shipped model table is read
lazily, once per process.
"""

from __future__ import annotations

from functools import lru_cache

from ..launch import Edit, Span
from ..surface.version import Version

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional


@lru_cache(maxsize=256)
def _v(s: str) -> Version:
    return Version(s)


def version_in(target: str, low: Optional[str] = None, below: Optional[str] = None) -> bool:
    """``low <= target < below`` (either bound optional)."""
    t = _v(target)
    if low is not None and t < _v(low):
        return False
    if below is not None and t >= _v(below):
        return False
    return True


def value_edit(arg, new_text: str) -> Optional[list[Edit]]:
    """Replace the value of ``arg`` in place (the value's text only: quotes and ``=`` stay), or None
    when the value has no editable text span."""
    if arg.value_opaque:
        return None
    if arg.keyed is not None:
        sp = arg.keyed.value_text_span
        return [Edit(sp, new_text)] if sp is not None else None
    if arg.value_tokens:
        if len(arg.value_tokens) != 1:
            return None
        tok = arg.value_tokens[0]
        if tok.opaque or tok.text_span is None:
            return None
        return [Edit(tok.text_span, new_text)]
    if arg.inline_value and arg.tokens:
        tok = arg.tokens[0]
        if tok.opaque or tok.text_span is None or "=" not in tok.text:
            return None
        head = tok.text.partition("=")[0] + "="
        start = tok.text_span.start + len(head.encode("utf-8"))
        if start > tok.text_span.end:
            return None
        return [Edit(Span(start, tok.text_span.end), new_text)]
    return None
