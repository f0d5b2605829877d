"""Shell-like word splitting for strings that are not run by a shell (compose ``command: "..."``,
``VLLM_ADDITIONAL_ARGS``): quotes and backslashes as in POSIX shell, ``$VAR`` marks a word
opaque, ``$$`` (compose's escape) is a literal ``$``."""

from __future__ import annotations

from vllm_lint.frontends.yaml.loader import ScalarNode, SequenceNode
from vllm_lint.frontends.yaml.nodes import NULL
from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

    Word = tuple[str, int, int, Optional[tuple[int, int]], bool]

_BARE_WORD = lazy_re(rb"[^ \t\r\n]+")
_BLANKS = b" \t\r\n"


def split_words(s: str) -> list[Word]:
    """Split ``s`` into words: ``(text, raw_start, raw_end, verbatim, opaque)``.

    Positions are UTF-8 byte offsets into ``s``. ``verbatim`` is the byte range that spells
    ``text`` exactly (the whole word, or the inside of a word that is one quoted string), or
    None when quotes/escapes break the 1:1 mapping. ``opaque`` marks words with ``$``
    expansions.
    """
    b = s.encode("utf-8", "surrogatepass")
    if b"'" not in b and b'"' not in b and b"\\" not in b and b"$" not in b:
        # no quote, escape or expansion: each run of other bytes is a word, spelled as written
        return [(m.group().decode("utf-8", "replace"), m.start(), m.end(), m.span(), False)
                for m in _BARE_WORD.finditer(b)]
    n = len(b)
    i = 0
    words = []
    while i < n:
        while i < n and b[i] in _BLANKS:
            i += 1
        if i >= n:
            break
        start = i
        i, text, parts, escaped, opaque = _read_word(b, i)
        end = min(i, n)
        raw = b[start:end]
        verbatim: Optional[tuple[int, int]] = None
        if not escaped:
            if raw == text:
                verbatim = (start, end)
            elif parts == 1 and len(raw) >= 2 and raw[0] in b"'\"" and raw[-1] == raw[0]:
                if raw[1:-1] == text:
                    verbatim = (start + 1, end - 1)
        words.append((text.decode("utf-8", "replace"), start, end, verbatim, opaque))
    return words


def _read_word(b: bytes, i: int) -> tuple[int, bytes, int, bool, bool]:
    """The word of ``b`` that starts at ``i``: (where it ends, its text, how many quoted or
    unquoted pieces it has, whether an escape spells part of it, whether it expands a variable)."""
    n = len(b)
    out = bytearray()
    parts = 0
    escaped = False
    opaque = False
    while i < n and b[i] not in _BLANKS:
        c = b[i]
        if c == 0x27:  # '
            j = b.find(b"'", i + 1)
            if j < 0:
                j = n
            out += b[i + 1 : j]
            i = j + 1
        elif c == 0x22:  # "
            i, esc, op = _double_quoted(b, i, out)
            escaped = escaped or esc
            opaque = opaque or op
        elif c == 0x5C:
            if i + 1 < n:
                out.append(b[i + 1])
                escaped = True
                i += 2
            else:  # a backslash that ends the string is itself (as in sh -c 'echo a\')
                out.append(c)
                i += 1
        else:
            if c == 0x24:
                if i + 1 < n and b[i + 1] == 0x24:  # $$ (compose escape) -> literal $
                    out.append(c)
                    escaped = True
                    i += 2
                    parts += 1
                    continue
                opaque = True
            j = i
            while j < n and b[j] not in b" \t\r\n'\"\\" and not (j > i and b[j] == 0x24):
                j += 1
            out += b[i:j]
            i = j
        parts += 1
    return i, bytes(out), parts, escaped, opaque


def _double_quoted(b: bytes, i: int, out: bytearray) -> tuple[int, bool, bool]:
    """Append the text of the double-quoted string at ``b[i]`` to ``out``: (the index after its
    closing quote, whether an escape spelled part of it, whether it expands a variable)."""
    n = len(b)
    escaped = opaque = False
    j = i + 1
    while j < n and b[j] != 0x22:
        if b[j] == 0x5C and j + 1 < n and b[j + 1] in b'"\\$`':
            out.append(b[j + 1])
            escaped = True
            j += 2
            continue
        if b[j] == 0x24:
            opaque = True
        out.append(b[j])
        j += 1
    return j + 1, escaped, opaque


def may_be_command(script: bytes) -> bool:
    """Whether ``script`` can hold a vLLM command line: it says vllm and has two words."""
    return b"vllm" in script and len(script.split(None, 1)) >= 2


def split_value(node: Any) -> Optional[list]:
    """:func:`split_words` of a command/args string (None for a list or anything else)."""
    if isinstance(node, ScalarNode) and node.tag != NULL:
        return split_words(node.value)
    return None


def word_texts(node: Any, split: Optional[list]) -> list[str]:
    """The texts of a command/args value's words (``split``: its :func:`split_value`), without
    building tokens."""
    if isinstance(node, SequenceNode):
        return [item.value if isinstance(item, ScalarNode) else "" for item in node.value]
    if split is not None:
        return [w[0] for w in split]
    return []
