"""Byte positions in the original file: line starts, ``ast`` columns to byte offsets (a BOM, a
non-UTF-8 coding declaration), the encoding CPython reads the file in, and the layout of a
bracketed, comma-separated container (where its elements and commas are, how to cut one out)."""

from __future__ import annotations

import ast
import bisect
from itertools import accumulate

from ...launch import Edit, ParseError, Span
from ...record import Record

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

WS = b" \t\x0c\r\n\\"
# for Source.non_ascii: ASCII bytes stay, but \r becomes \n (both end a line), the others 0x80
_MARK_NON_ASCII = bytes(range(128)).replace(b"\r", b"\n") + b"\x80" * 128


class Source:
    """Byte-offset arithmetic over the original file bytes."""

    def __init__(self, data: bytes, encoding: str):
        self.data = data
        self.utf8 = encoding in ("utf-8", "utf-8-sig")
        self.encoding = "utf-8" if self.utf8 else encoding  # for slices: a BOM is never inside
        self.bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        self._line_starts: Optional[list[int]] = None
        self._non_ascii: Optional[list[int]] = None
        self._conv: dict[int, Optional[list[int]]] = {}

    @property
    def line_starts(self) -> list[int]:
        """Byte offset of each line (CPython ends lines at \\r\\n, \\r and \\n); built on first use."""
        starts = self._line_starts
        if starts is None:
            data = self.data
            # bytes.splitlines breaks at exactly these three (str.splitlines at more)
            starts = [0]
            starts.extend(accumulate(map(len, data.splitlines(True))))
            if data and data[-1] not in b"\r\n":  # the last line has no end: no line after it
                starts.pop()
            self._line_starts = starts
        return starts

    @property
    def non_ascii(self) -> list[int]:
        """The offset of the first non-ASCII byte of each line holding one; built on first use."""
        found = self._non_ascii
        if found is None:
            found = self._non_ascii = []
            data = self.data
            if not data.isascii():
                # two byte searches per such line, where a regular expression for the bytes took
                # ~8 ms per MB: every non-ASCII byte reads 0x80, and every line end \n
                marked = data.translate(_MARK_NON_ASCII)
                i = marked.find(b"\x80")
                while i >= 0:
                    found.append(i)
                    j = marked.find(b"\n", i)
                    if j < 0:
                        break
                    i = marked.find(b"\x80", j)
        return found

    def off(self, lineno: int, col: int) -> int:
        starts = self._line_starts or self.line_starts  # (the property costs a call)
        base = starts[lineno - 1] if lineno - 1 < len(starts) else len(self.data)
        if lineno == 1:
            base += self.bom
        if self.utf8:
            return base + col
        return base + self._convert(lineno, base, col)

    def _convert(self, lineno: int, base: int, col: int) -> int:
        """Map a UTF-8 column to a byte column in the file's declared encoding."""
        conv = self._conv.get(lineno, 0)
        if conv == 0:
            end = self.line_starts[lineno] if lineno < len(self.line_starts) else len(self.data)
            raw = self.data[base:end]
            if raw.isascii():
                conv = None
            else:
                conv = [0]
                try:
                    for ch in raw.decode(self.encoding):
                        n8 = len(ch.encode("utf-8"))
                        nf = len(ch.encode(self.encoding))
                        last = conv[-1]
                        conv.extend([last] * (n8 - 1))
                        conv.append(last + nf)
                except (UnicodeError, LookupError):
                    conv = None
            self._conv[lineno] = conv
        if conv is None or col >= len(conv):
            return col if conv is None else conv[-1] + (col - len(conv) + 1)
        return conv[col]

    def span(self, node: ast.AST) -> Span:
        return Span(self.off(node.lineno, node.col_offset), self.off(node.end_lineno, node.end_col_offset))

    def line_start(self, pos: int) -> int:
        return self.line_starts[bisect.bisect_right(self.line_starts, pos) - 1]

    def line_end(self, pos: int) -> tuple[int, int]:
        """``(end of content, start of next line)`` for the line holding ``pos``."""
        i = bisect.bisect_right(self.line_starts, pos)
        if i < len(self.line_starts):
            nxt = self.line_starts[i]
            content_end = nxt - 1
            if content_end > 0 and self.data[content_end - 1:content_end + 1] == b"\r\n":
                content_end -= 1
            return content_end, nxt
        return len(self.data), len(self.data)

    def text(self, span: Span) -> str:
        return self.data[span.start:span.end].decode(self.encoding, "replace")


def source_encoding(data: bytes) -> str:
    """The encoding CPython reads ``data`` in, as ``tokenize.detect_encoding`` finds it, lower case.

    It only reads the first two lines (up to ``\\n``, as ``readline`` splits): when they are ASCII
    and never say ``coding``, there is no BOM and no declaration, and the answer is UTF-8 without
    importing ``tokenize`` (~1 ms) or running it. Anything else takes the full route."""
    end = data.find(b"\n")
    if end >= 0:
        end = data.find(b"\n", end + 1)
    head = data if end < 0 else data[:end]
    if head.isascii() and b"coding" not in head:
        return "utf-8"
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise ParseError(f"bad encoding declaration: {exc}", line=getattr(exc, "lineno", None) or 1) from None
    encoding = encoding.lower()
    if encoding not in ("utf-8", "utf-8-sig"):
        try:
            "".encode(encoding)
        except LookupError:
            raise ParseError(f"unknown encoding {encoding!r}", line=1) from None
    return encoding


def scan_gap(data: bytes, a: int, b: int) -> list[int]:
    """Positions of the significant bytes in ``data[a:b]`` (no whitespace, comments, ``\\``+EOL)."""
    out = []
    i = a
    while i < b:
        c = data[i]
        if c == 0x23:  # '#'
            while i < b and data[i] not in (0x0A, 0x0D):
                i += 1
            continue
        if c in WS:
            i += 1
            continue
        out.append(i)
        i += 1
    return out


class Item(Record):
    __slots__ = ("start", "end", "comma")

    def __init__(self, start: int, end: int, comma: Optional[int]) -> None:
        self.start = start  # first byte of the element as written (leading '(' / '*' / '**' included)
        self.end = end  # after its last byte (trailing ')' of a parenthesised element included)
        self.comma = comma  # position of the comma that follows it, if any


class Layout:
    """The elements of one bracketed, comma-separated container and how to cut them out."""

    def __init__(self, src: Source, open_pos: int, close_pos: int, spans: list[Span]):
        self.src = src
        self.open = open_pos
        self.close = close_pos
        data = src.data
        items: list[Item] = []
        n = len(spans)
        if n:
            sig = scan_gap(data, open_pos + 1, spans[0].start)
            first_start = sig[0] if sig else spans[0].start
            starts = [first_start]
            for i in range(n):
                nxt = spans[i + 1].start if i + 1 < n else close_pos
                sig = scan_gap(data, spans[i].end, nxt)
                comma = next((p for p in sig if data[p] == 0x2C), None)
                before = [p for p in sig if comma is None or p < comma]
                after = [p for p in sig if comma is not None and p > comma]
                end = before[-1] + 1 if before else spans[i].end
                items.append(Item(starts[i], end, comma))
                if i + 1 < n:
                    starts.append(after[0] if after else spans[i + 1].start)
        self.items = items

    def _tail(self, i: int) -> int:
        it = self.items[i]
        return it.comma + 1 if it.comma is not None else it.end

    def _alone(self, first: int, last: int) -> bool:
        """Elements ``first..last`` (with the last comma and an end-of-line comment) fill their lines."""
        src = self.src
        data = src.data
        start = self.items[first].start
        ls = src.line_start(start)
        if data[ls:start].strip(b" \t\x0c"):
            return False
        tail = self._tail(last)
        content_end, _ = src.line_end(tail)
        rest = data[tail:content_end].strip(b" \t\x0c")
        return not rest or rest.startswith(b"#")

    def delete_span(self, first: int, last: Optional[int] = None) -> Optional[Span]:
        """Span removing elements ``first..last`` (inclusive) with their separators."""
        if last is None:
            last = first
        items = self.items
        if not (0 <= first <= last < len(items)):
            return None
        if self._alone(first, last):
            start = self.src.line_start(items[first].start)
            _, nxt = self.src.line_end(self._tail(last))
            return Span(start, nxt)
        if last + 1 < len(items):
            return Span(items[first].start, items[last + 1].start)
        if first > 0:
            return Span(items[first - 1].end, self._tail(last))
        return Span(items[first].start, self._tail(last))

    def delete_runs(self, indices: set[int]) -> Optional[list[Edit]]:
        runs: list[tuple[int, int]] = []
        for i in sorted(indices):
            if runs and runs[-1][1] == i - 1:
                runs[-1] = (runs[-1][0], i)
            else:
                runs.append((i, i))
        edits = []
        for a, b in runs:
            sp = self.delete_span(a, b)
            if sp is None:
                return None
            edits.append(Edit(sp, ""))
        return edits
