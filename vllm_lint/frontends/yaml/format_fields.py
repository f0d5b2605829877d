"""Command strings that are ``str.format`` templates of a repository's own launcher.

A recipe runner keeps ``command: |`` with ``{port}``, ``{tensor_parallel}`` fields and fills them
from the same document's settings (``defaults: {port: 8000, ...}``) before it runs the line; its
``{{`` and ``}}`` are literal braces (``'{{"method":"mtp"}}'`` runs as ``'{"method":"mtp"}'``).
A string is taken for such a template only when it is a valid format string (every single brace
opens or closes a field) with at least one field, and every field names a key of the document's
mapping that holds the command, or of a mapping directly under it: a Helm ``{{ .Values.x }}`` (no
field) and a shell ``${VAR}`` (its field names no key) are never taken for one.

The fields' words are opaque (the values come at launch time and may be overridden); the other
words are read as they run, escapes rendered, with no text span (a fix would have to write the
escapes back). ``{{`` was filled as a template expression when the file was read
(:mod:`.templates`): inside the template's block scalar those regions are restored and dropped,
so they are not noted as template expressions (VL002).
"""

from __future__ import annotations

from vllm_lint.frontends.embedding import Embedding
from vllm_lint.frontends.yaml.loader import MappingNode
from vllm_lint.frontends.yaml.nodes import text as node_text
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.launch import Extraction, Launch
from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

_FIELD_NAME = lazy_re(rb"[A-Za-z_][A-Za-z0-9_]*")


class FormatTemplate:
    """A command string read as a ``str.format`` template: ``text`` (the string as written) and
    the byte ranges of its fields in it."""

    __slots__ = ("text", "fields")

    def __init__(self, text: bytes, fields: list[tuple[int, int]]):
        self.text = text
        self.fields = fields

    def apply(self, launches: list[Launch], m: Embedding) -> None:
        """Make the fields' words of ``launches`` (read from :attr:`text` through ``m``) opaque
        and render the escapes of the others."""
        from vllm_lint.frontends.doc_commands import mark

        ex = Extraction()
        ex.launches = launches
        mark(ex, [(s, e, False) for s, e in self.fields], m)
        for la in launches:
            for tok in la.tokens:
                if not tok.opaque and ("{{" in tok.text or "}}" in tok.text):
                    tok.text, tok.text_span = _render(tok.text), None


def template_of(t: YamlText, node: Any, m: Embedding, holder: Any) -> Optional[FormatTemplate]:
    """The scalar ``node`` (``m``: its map) as a launcher's ``str.format`` template, or None;
    ``holder``: the mapping that holds the command (see the module)."""
    value = m.text
    if b"{" not in value:
        return None
    s, e = t.pos(node.start_mark.index), t.pos(node.end_mark.index)
    inside = [r for r in t.regions if s <= r[0] and r[1] <= e]
    if inside:
        if t.original is None or t.outer is not None or node.style not in ("|", ">"):
            return None  # (only a block scalar is sure to read the same with the braces back)
        restored = bytearray(value)
        for v, h, n in m.segments:
            restored[v:v + n] = t.original[h:h + n]
        value = bytes(restored)
    fields = _fields(value)
    if not fields or any(value[fs - 1:fs] == b"$" for fs, _fe in fields):
        return None  # (a shell's `${NAME}`, however its name matches a key)
    keys = _keys(holder)
    if any(_FIELD_NAME.match(value, fs + 1).group().decode() not in keys for fs, _fe in fields):
        return None
    if inside:
        t.regions[:] = [r for r in t.regions if r not in inside]
    return FormatTemplate(value, fields)


def _fields(value: bytes) -> Optional[list[tuple[int, int]]]:
    """The ``(start, end)`` of each replacement field of ``value`` read as ``str.format`` reads
    it, when each is ``{name}`` (an attribute, index, conversion or spec may follow the name);
    None when ``value`` is no valid format string or a field has no name."""
    out = []
    i, n = 0, len(value)
    while i < n:
        c = value[i]
        if c == 0x7B:  # {
            if value.startswith(b"{{", i):
                i += 2
                continue
            j = value.find(b"}", i)
            if j < 0 or b"{" in value[i + 1:j] or _FIELD_NAME.match(value, i + 1) is None:
                return None
            out.append((i, j + 1))
            i = j + 1
        elif c == 0x7D:  # }
            if not value.startswith(b"}}", i):
                return None  # a single '}' is str.format's error
            i += 2
        else:
            i += 1
    return out


def _keys(holder: Any) -> set[str]:
    """Keys of mapping ``holder`` and of the mappings directly under it."""
    out: set[str] = set()
    if not isinstance(holder, MappingNode):
        return out
    for k, v in holder.value:
        out.add(node_text(k) or "")
        if isinstance(v, MappingNode):
            out.update(node_text(k2) or "" for k2, _v2 in v.value)
    return out


def _render(word: str) -> str:
    return word.replace("{{", "{").replace("}}", "}")
