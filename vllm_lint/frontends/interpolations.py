"""Terraform's interpolations and directives (``${...}``, ``%{...}``), an envsubst template's
placeholders: spelled as template expressions of the same length (``{{...}}``), which the YAML
front-end reads as unknown values (a Terraform heredoc's manifest, a ``deploy.yaml.tpl``). Imported
when a file holds one."""

from __future__ import annotations

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

_MAX_BRACES = 64  # (an interpolation nested deeper than this is left as written)


def interpolations_as_regions(text: bytes) -> tuple[bytes, list[tuple[int, int]]]:
    """``text`` with each ``${...}`` / ``%{...}`` (Terraform's interpolations and directives, an
    envsubst template's placeholders) spelled as a template expression of the same length
    (``{{...}}``), and the rewritten ranges."""
    out = bytearray(text)
    changed = []
    i = 0
    while True:
        i = _next_interpolation(text, i)
        if i < 0:
            break
        if i > 0 and text[i - 1:i] == text[i:i + 1]:  # $${ / %%{: a literal
            i += 2
            continue
        end = _interpolation_end(text, i + 2)
        if end is None or end - i < 4:
            i += 2
            continue
        inner = text[i + 2:end - 1]
        out[i:end] = b"{{" + inner[:len(inner) - 1] + b"}}"
        changed.append((i, end))
        i = end
    return bytes(out), changed


def _next_interpolation(text: bytes, i: int) -> int:
    a, b = text.find(b"${", i), text.find(b"%{", i)
    return min(x for x in (a, b) if x >= 0) if a >= 0 or b >= 0 else -1


def _interpolation_end(text: bytes, i: int) -> Optional[int]:
    """The offset just after the ``}`` that closes an interpolation whose body starts at ``i``."""
    depth = 0
    quote = False
    for j in range(i, min(len(text), i + 4096)):
        c = text[j:j + 1]
        if c == b"\n" and not quote:
            return None
        if c == b'"' and text[j - 1:j] != b"\\":
            quote = not quote
        elif not quote and c == b"{":
            depth += 1
            if depth > _MAX_BRACES:
                return None
        elif not quote and c == b"}":
            if depth == 0:
                return j + 1
            depth -= 1
    return None
