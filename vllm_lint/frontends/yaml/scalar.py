"""Map a YAML scalar's decoded value back to the bytes that spell it in the file.

A fix must splice bytes into the original file, never re-serialise it, so every character of a
decoded scalar value that has a verbatim counterpart in the file needs that counterpart's byte
offset. How a value relates to its source depends on the scalar's style:

* plain, one line: the value *is* the source text (1:1).
* ``'single'``: 1:1 except ``''``, which decodes to one quote (the map breaks there).
* ``"double"``: 1:1 between escapes; ``\\n``, ``\\"``, ``\\x41``, ... and line folding produce
  characters with no verbatim counterpart (unmapped).
* ``|`` literal block: each content line maps 1:1 after its indentation is stripped (an indent
  map); the line feed maps to the file's ``\\n`` when the line ends in LF.
* ``>`` folded: folding turns line breaks into spaces (or newlines), so each content line maps 1:1
  after its indentation and the folds map to nothing. Multi-line plain and quoted scalars map
  nothing (report only): a ``#`` there may end the scalar or be content, so a suppression comment
  could not be placed inside them.

Every map is verified: the value rebuilt from the source must equal the value libyaml decoded,
otherwise the map is empty. A wrong map would be worse than none, because a fix would hit the
wrong bytes.

Offsets here are byte offsets into the value's UTF-8 encoding (``value.encode()``) and into the
file.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Optional

from vllm_lint.launch import Span

__all__ = ["ScalarMap", "map_scalar"]


class ScalarMap:
    """Piecewise-linear map from value byte offsets to file byte offsets.

    ``segments`` holds ``(value_start, file_start, length)`` runs, sorted, non-overlapping.
    """

    __slots__ = ("segments", "_starts", "value")

    def __init__(self, value: bytes, segments: list[tuple[int, int, int]]):
        self.value = value
        self.segments = segments
        self._starts = [s[0] for s in segments]

    @classmethod
    def empty(cls, value: bytes) -> "ScalarMap":
        return cls(value, [])

    @property
    def complete(self) -> bool:
        """True when the whole value is one verbatim run (plain / quoted without escapes)."""
        return len(self.segments) == 1 and self.segments[0][2] == len(self.value) or (
            not self.value and not self.segments
        )

    def _seg(self, off: int) -> Optional[tuple[int, int, int]]:
        i = bisect_right(self._starts, off) - 1
        if i < 0:
            return None
        seg = self.segments[i]
        if off < seg[0] + seg[2]:
            return seg
        return None

    def map(self, off: int) -> Optional[int]:
        """File byte offset of value byte ``off``; the end of the value maps to just after its
        last byte when that byte is mapped."""
        seg = self._seg(off)
        if seg is not None:
            return seg[1] + off - seg[0]
        if off > 0:
            seg = self._seg(off - 1)
            if seg is not None:
                return seg[1] + off - seg[0]
        return None

    def span(self, start: int, end: int) -> Optional[Span]:
        """File span of value bytes ``[start, end)`` if they are one verbatim run, else None."""
        if end <= start:
            seg = self._seg(start) or (self._seg(start - 1) if start > 0 else None)
            if seg is None:
                return None
            f = seg[1] + start - seg[0]
            return Span(f, f)
        seg = self._seg(start)
        if seg is None or end > seg[0] + seg[2]:
            return None
        return Span(seg[1] + start - seg[0], seg[1] + end - seg[0])


def _plain(src: bytes, fstart: int, value: bytes) -> list[tuple[int, int, int]]:
    if src == value and b"\n" not in src and b"\r" not in src:
        return [(0, fstart, len(value))] if value else []
    return []


def _single(src: bytes, fstart: int, value: bytes) -> list[tuple[int, int, int]]:
    # src includes the quotes
    if len(src) < 2 or src[:1] != b"'" or src[-1:] != b"'":
        return []
    body = src[1:-1]
    if b"\n" in body or b"\r" in body:
        return []  # folded: report only
    segs: list[tuple[int, int, int]] = []
    out = bytearray()
    i = 0
    n = len(body)
    while i < n:
        j = body.find(b"''", i)
        if j < 0:
            j = n
        if j > i:
            segs.append((len(out), fstart + 1 + i, j - i))
            out += body[i:j]
        if j >= n:
            break
        out += b"'"  # the escaped quote: unmapped
        i = j + 2
    if bytes(out) != value:
        return []
    return segs


_SIMPLE_ESCAPES = {
    ord("0"): b"\x00", ord("a"): b"\x07", ord("b"): b"\x08", ord("t"): b"\t", ord("\t"): b"\t",
    ord("n"): b"\n", ord("v"): b"\x0b", ord("f"): b"\x0c", ord("r"): b"\r", ord("e"): b"\x1b",
    ord(" "): b" ", ord('"'): b'"', ord("/"): b"/", ord("\\"): b"\\",
    ord("N"): "\u0085".encode(), ord("_"): "\u00a0".encode(), ord("L"): "\u2028".encode(),
    ord("P"): "\u2029".encode(),
}
_HEX_LEN = {ord("x"): 2, ord("u"): 4, ord("U"): 8}


def _double(src: bytes, fstart: int, value: bytes) -> list[tuple[int, int, int]]:
    if len(src) < 2 or src[:1] != b'"' or src[-1:] != b'"':
        return []
    body = src[1:-1]
    if b"\n" in body or b"\r" in body:
        return []  # line folding / escaped line breaks: report only
    segs: list[tuple[int, int, int]] = []
    out = bytearray()
    i = 0
    n = len(body)
    while i < n:
        j = body.find(b"\\", i)
        if j < 0:
            j = n
        if j > i:
            segs.append((len(out), fstart + 1 + i, j - i))
            out += body[i:j]
        if j >= n:
            break
        if j + 1 >= n:
            return []
        c = body[j + 1]
        if c in _SIMPLE_ESCAPES:
            out += _SIMPLE_ESCAPES[c]
            i = j + 2
        elif c in _HEX_LEN:
            k = _HEX_LEN[c]
            hexs = body[j + 2 : j + 2 + k]
            try:
                out += chr(int(hexs, 16)).encode("utf-8", "surrogatepass")
            except ValueError:
                return []
            i = j + 2 + k
        else:
            return []
    if bytes(out) != value:
        return []
    return segs


def _literal(src: bytes, fstart: int, value: bytes) -> list[tuple[int, int, int]]:
    """``|`` block: header line, then content lines with a common indentation."""
    nl = src.find(b"\n")
    if nl < 0:
        return []
    pos = nl + 1
    lines: list[tuple[int, bytes, bool]] = []  # (offset in src, line without break, has LF-only)
    n = len(src)
    while pos < n:
        e = src.find(b"\n", pos)
        if e < 0:
            line = src[pos:]
            lines.append((pos, line, False))
            break
        line = src[pos:e]
        crlf = line.endswith(b"\r")
        if crlf:
            line = line[:-1]
        lines.append((pos, line, not crlf))
        pos = e + 1
    # the indentation of the first non-blank line (an explicit indentation indicator with
    # content that starts with spaces makes this wrong; the verification below then drops the map)
    indent = None
    for _off, line, _lf in lines:
        stripped = line.lstrip(b" ")
        if stripped:
            indent = len(line) - len(stripped)
            break
    if indent is None:
        return []
    segs: list[tuple[int, int, int]] = []
    out = bytearray()
    for off, line, lf in lines:
        lead = len(line) - len(line.lstrip(b" "))
        if line.strip(b" ") == b"":
            # blank line (may carry more spaces than the indent: those are content)
            content_start = min(lead, indent)
            content = line[content_start:]
            if content:
                segs.append((len(out), fstart + off + content_start, len(content)))
                out += content
        else:
            if lead < indent:
                break  # the block ended (a less-indented comment line)
            content = line[indent:]
            segs.append((len(out), fstart + off + indent, len(content)))
            out += content
        if lf:
            segs.append((len(out), fstart + off + len(line), 1))
        out += b"\n"
    built = bytes(out)
    if not built.startswith(value):
        return []
    # cut the segments to the value's length (chomping)
    cut: list[tuple[int, int, int]] = []
    vlen = len(value)
    for v, f, ln in segs:
        if v >= vlen:
            break
        cut.append((v, f, min(ln, vlen - v)))
    # merge adjacent runs that are contiguous in the file (content + its LF)
    merged: list[tuple[int, int, int]] = []
    for v, f, ln in cut:
        if merged and merged[-1][0] + merged[-1][2] == v and merged[-1][1] + merged[-1][2] == f:
            pv, pf, pl = merged[-1]
            merged[-1] = (pv, pf, pl + ln)
        else:
            merged.append((v, f, ln))
    return merged


def _folded(src: bytes, fstart: int, value: bytes) -> list[tuple[int, int, int]]:
    """``>`` block: each content line (after the block's indentation) is a verbatim run of the
    value; the line breaks between them fold into a space or newlines, which map to nothing. The
    runs are found in order, with only spaces and newlines between them; where one is not found
    the map ends there (what is mapped is exact, the rest unmapped)."""
    nl = src.find(b"\n")
    if nl < 0:
        return []
    pieces: list[tuple[int, bytes]] = []  # (offset in src, content)
    indent = None
    pos = nl + 1
    while pos < len(src):
        e = src.find(b"\n", pos)
        line = src[pos:] if e < 0 else src[pos:e]
        line = line[:-1] if line.endswith(b"\r") else line
        stripped = line.lstrip(b" ")
        if stripped:
            lead = len(line) - len(stripped)
            if indent is None:
                indent = lead
            if lead < indent or b"\t" in line[:indent]:
                break  # the block ended (a less-indented comment line)
            pieces.append((pos + indent, line[indent:]))
        if e < 0:
            break
        pos = e + 1
    segs: list[tuple[int, int, int]] = []
    p = 0
    for off, content in pieces:
        k = value.find(content, p)
        if k < 0 or value[p:k].strip(b" \n"):
            break
        segs.append((k, fstart + off, len(content)))
        p = k + len(content)
    return segs


def map_scalar(data: bytes, start: int, end: int, style: Optional[str], value: str) -> ScalarMap:
    """Map for a scalar node spelled by ``data[start:end]`` (file byte offsets)."""
    vb = value.encode("utf-8", "surrogatepass")
    src = data[start:end]
    try:
        if not style:
            segs = _plain(src, start, vb)
        elif style == "'":
            segs = _single(src, start, vb)
        elif style == '"':
            segs = _double(src, start, vb)
        elif style == "|":
            segs = _literal(src, start, vb)
        elif style == ">":
            segs = _folded(src, start, vb)
        else:
            segs = []
    except (ValueError, IndexError):  # pragma: no cover - defensive
        segs = []
    return ScalarMap(vb, segs)
