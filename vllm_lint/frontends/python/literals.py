"""String literals with positions, and the values of literal nodes.

A ``str`` literal (implicitly concatenated pieces, raw, f-strings) is decoded char by char with
the file bytes that spell each char, so a finding in a string (a shell command, a key) points at
the bytes as written and a fix edits them where they spell the value 1:1. F-string fields become
placeholders (opaque words for the shell front-end). :func:`embedding_of` turns a decoded string
into the embedding an embedded format's extraction is mapped through."""

from __future__ import annotations

import ast
import re
import warnings

from ...launch import Span
from ..embedding import Embedding
from ...record import Record
from .source import Source

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable, Optional


class StrInfo(Record):
    """A decoded ``str`` literal (possibly implicitly concatenated, possibly an f-string)."""

    __slots__ = ("value", "char_spans", "fields", "verbatim")

    def __init__(self, value: str, char_spans: list[Optional[tuple[int, int]]],
                 fields: list[tuple[int, int, int, int]], verbatim: Optional[Span]) -> None:
        self.value = value  # with f-string fields replaced by placeholders when ``fields``
        self.char_spans = char_spans  # file bytes spelling each char verbatim
        self.fields = fields  # (char index, char length, file start, file end)
        self.verbatim = verbatim  # inner bytes when the whole value is spelled 1:1 in one piece

    @property
    def opaque(self) -> bool:
        return bool(self.fields)


_SIMPLE_ESC = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n",
               "r": "\r", "t": "\t", "v": "\v"}
# the escapes with digits after the backslash: the pattern and how many chars it may span
_NUMERIC_ESC = {"x": (r"\\x[0-9a-fA-F]{2}", 4), "u": (r"\\u[0-9a-fA-F]{4}", 6),
                "U": (r"\\U[0-9a-fA-F]{8}", 10), "N": (r"\\N\{[^}]*\}", 100)}


def placeholder(k: int) -> str:
    return "${PYTHON_EXPR_%d}" % k


def decode_literal(src: Source, span: Span, placeholder: Callable[[int], str]) -> Optional[StrInfo]:
    """Decode the string literal(s) in ``span`` char by char, tracking file positions.

    Returns None for bytes literals or anything this scanner does not understand.
    """
    raw = src.data[span.start:span.end]
    q = raw[:1]
    if (q == b"'" or q == b'"') and len(raw) >= 2 and raw[-1:] == q and raw[:3] != q * 3 and src.utf8:
        body = raw[1:-1]
        if body.isascii() and q not in body and b"\\" not in body and b"\n" not in body and b"\r" not in body:
            # one plain ASCII literal, each char spelled by one byte: what the decoder returns
            k = span.start + 1
            return StrInfo(body.decode("ascii"), [(i, i + 1) for i in range(k, k + len(body))], [],
                           Span(k, k + len(body)))
    try:
        s = raw.decode(src.encoding)
    except (UnicodeError, LookupError):
        return None
    # file byte offset of each char of s
    if raw.isascii():
        offs = None
    else:
        offs = [span.start]
        for ch in s:
            offs.append(offs[-1] + len(ch.encode(src.encoding)))
    decoder = _Decoder(s, span.start, offs, placeholder)
    if not decoder.run():
        return None
    cspans = decoder.cspans
    return StrInfo("".join(decoder.out), cspans, decoder.fields,
                   _verbatim(raw, span, cspans) if decoder.pieces == 1 and not decoder.fields else None)


def _verbatim(raw: bytes, span: Span, cspans: list[Optional[tuple[int, int]]]) -> Optional[Span]:
    """The inner bytes of a one-piece literal whose chars are each spelled as themselves, in a row."""
    if not all(cs is not None for cs in cspans):
        return None
    if not all(cspans[k][1] == cspans[k + 1][0] for k in range(len(cspans) - 1)):  # type: ignore[index]
        return None
    if cspans:
        return Span(cspans[0][0], cspans[-1][1])  # type: ignore[index]
    # empty literal: the point between the quotes
    inner = span.start + raw.find(b'"' if b'"' in raw[:4] else b"'")
    qlen = 3 if raw[inner - span.start:inner - span.start + 3] in (b'"""', b"'''") else 1
    return Span(inner + qlen, inner + qlen)


class _Decoder:
    """The pieces of one literal expression's source text ``s``, decoded into ``out`` with the
    file bytes of each char (``cspans``) and the f-string fields; ``run`` is False where the
    text is not a string literal this scanner reads."""

    def __init__(self, s: str, start: int, offs: Optional[list[int]], placeholder: Callable[[int], str]):
        self.s = s
        self.start = start
        self.offs = offs
        self.placeholder = placeholder
        self.out: list[str] = []
        self.cspans: list[Optional[tuple[int, int]]] = []
        self.fields: list[tuple[int, int, int, int]] = []
        self.pieces = 0

    def at(self, i: int) -> int:
        return self.start + i if self.offs is None else self.offs[i]

    def run(self) -> bool:
        s = self.s
        n = len(s)
        i = 0
        while i < n:
            c = s[i]
            if c in " \t\x0c\r\n":
                i += 1
                continue
            if c == "\\" and i + 1 < n and s[i + 1] in "\r\n":
                i += 2
                continue
            if c == "#":
                while i < n and s[i] not in "\r\n":
                    i += 1
                continue
            j = i
            while j < n and s[j].isalpha():
                j += 1
            prefix = s[i:j].lower()
            if "b" in prefix or any(p not in "rfu" for p in prefix) or j >= n or s[j] not in "'\"":
                return False
            q = s[j:j + 3] if s[j:j + 3] in ('"""', "'''") else s[j]
            self.pieces += 1
            end = self._piece(j + len(q), q, "r" in prefix, "f" in prefix)
            if end is None:
                return False
            i = end
        return True

    def _keep(self, ch: str, i: int, j: int) -> None:
        """``ch`` is spelled by the file bytes of ``s[i:j]``."""
        self.out.append(ch)
        self.cspans.append((self.at(i), self.at(j)))

    def _made(self, ch: str) -> None:
        """``ch`` has no 1:1 bytes (an escape, a normalised newline, ``{{``)."""
        self.out.append(ch)
        self.cspans.append(None)

    def _piece(self, i: int, q: str, raw_mode: bool, fmode: bool) -> Optional[int]:
        """Decode one literal's body from ``s[i]`` to its closing quote ``q``; the index after it."""
        s = self.s
        n = len(s)
        while True:
            if i >= n:
                return None
            if s.startswith(q, i):
                return i + len(q)
            c = s[i]
            if c == "\\":
                nxt = self._escape(i, raw_mode)
                if nxt is None:
                    return None
                i = nxt
                continue
            if c in "\r\n":  # newline inside a triple-quoted string, normalised to \n
                step = 2 if s.startswith("\r\n", i) else 1
                if c == "\n":
                    self._keep("\n", i, i + 1)
                else:
                    self._made("\n")
                i += step
                continue
            if fmode and c in "{}":
                nxt = self._brace(i, q)
                if nxt is None:
                    return None
                i = nxt
                continue
            self._keep(c, i, i + 1)
            i += 1

    def _escape(self, i: int, raw_mode: bool) -> Optional[int]:
        """The backslash at ``s[i]``; the index after what it escapes."""
        s = self.s
        if i + 1 >= len(s):
            return None
        nc = s[i + 1]
        if raw_mode:
            # raw: both chars kept (a backslash-newline keeps the newline, normalised)
            self._keep("\\", i, i + 1)
            return i + 1
        if nc in "\r\n":  # line continuation inside the literal
            return i + (3 if s.startswith("\r\n", i + 1) else 2)
        if nc in _SIMPLE_ESC:
            self._made(_SIMPLE_ESC[nc])
            return i + 2
        m = None
        if nc in "01234567":
            m = re.match(r"\\[0-7]{1,3}", s[i:i + 4])
        elif nc in _NUMERIC_ESC:
            pattern, width = _NUMERIC_ESC[nc]
            m = re.match(pattern, s[i:i + width])
        if m:
            try:
                ch = m.group(0).encode("ascii").decode("unicode_escape")
            except (UnicodeError, ValueError):
                return None
            self._made(ch)
            return i + len(m.group(0))
        # unknown escape: kept verbatim
        self._keep("\\", i, i + 1)
        return i + 1

    def _brace(self, i: int, q: str) -> Optional[int]:
        """A ``{`` or ``}`` in an f-string: a doubled brace, or a replacement field."""
        s = self.s
        c = s[i]
        if s.startswith(c * 2, i):
            self._made(c)
            return i + 2
        if c == "}":
            return None
        k = fstring_field_end(s, i, q)
        if k is None:
            return None
        ph = self.placeholder(len(self.fields))
        self.fields.append((len(self.out), len(ph), self.at(i), self.at(k)))
        for pc in ph:
            self._made(pc)
        return k


def with_fields(info: StrInfo, pattern) -> Optional[StrInfo]:
    """``info`` with the formatting fields ``pattern`` matches (printf's ``%s``, ``str.format``'s
    ``{}``) made placeholders, as an f-string's fields are, and their escapes (``%%``, ``{{``)
    made the one char they stand for. None when a field has no bytes of its own in the file
    (spelled with escapes) or ``info`` has fields already."""
    if info.fields:
        return None
    value, spans = info.value, info.char_spans
    out: list[str] = []
    cspans: list[Optional[tuple[int, int]]] = []
    fields: list[tuple[int, int, int, int]] = []
    k = 0
    for m in pattern.finditer(value):
        out.extend(value[k:m.start()])
        cspans.extend(spans[k:m.start()])
        k = m.end()
        text = m.group(0)
        if text in ("%%", "{{", "}}"):
            out.append(text[0])
            cspans.append(None)
            continue
        first, last = spans[m.start()], spans[m.end() - 1]
        if first is None or last is None:
            return None
        ph = placeholder(len(fields))
        fields.append((len(out), len(ph), first[0], last[1]))
        out.extend(ph)
        cspans.extend([None] * len(ph))
    out.extend(value[k:])
    cspans.extend(spans[k:])
    return StrInfo("".join(out), cspans, fields, None)


def fstring_field_end(s: str, i: int, q: str) -> Optional[int]:
    """Index just after the ``}`` closing the replacement field opening at ``s[i] == '{'``."""
    depth = 0
    n = len(s)
    while i < n:
        c = s[i]
        if s.startswith(q, i):
            return None
        if c in "{[(":
            depth += 1
        elif c in "}])":
            depth -= 1
            if depth == 0:
                return i + 1 if c == "}" else None
        elif c in "'\"":
            k = s.find(c, i + 1)
            if k < 0:
                return None
            i = k
        i += 1
    return None


def embedding_of(info: StrInfo, script: bytes, utf8: bool) -> Embedding:
    """The decoded script (UTF-8) in the file: script byte ``i`` maps to where it is spelled,
    to nothing when it has no 1:1 counterpart (escapes, normalised newlines). An f-string field's
    placeholder maps its first byte to the ``{`` and its last byte to the ``}``, so the shell
    front-end's span of the placeholder word covers the field as written.
    """
    L = len(script)
    pos: list[Optional[int]] = [None] * L
    field_at = {ci: (ln, fs, fe) for ci, ln, fs, fe in info.fields}
    chars = info.value
    k = ci = 0
    while ci < len(chars):
        if ci in field_at:
            ln, fs, fe = field_at[ci]
            nbytes = len(chars[ci:ci + ln].encode("utf-8"))
            pos[k] = fs
            pos[k + nbytes - 1] = fe - 1
            k += nbytes
            ci += ln
            continue
        nb = len(chars[ci].encode("utf-8"))
        cs = info.char_spans[ci]
        if cs is not None:
            pos[k] = cs[0]
            if utf8 and cs[1] - cs[0] == nb:
                for j in range(1, nb):
                    pos[k + j] = cs[0] + j
        k += nb
        ci += 1
    return Embedding.from_positions(script, pos)


NOT_LITERAL = object()


def literal(node: ast.AST) -> Any:
    """The value of a literal expression, or :data:`NOT_LITERAL`."""
    if node.__class__ is ast.Constant:  # what literal_eval returns, without the warnings guard
        return node.value
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError, AttributeError):
        return NOT_LITERAL


def is_str_node(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(node, ast.JoinedStr)
