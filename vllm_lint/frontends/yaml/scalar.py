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
  after its indentation and the folds map to nothing.
* plain and quoted scalars over several lines: line folding drops each line's leading and
  trailing blanks and joins the lines with a space (or a newline per empty line), so each
  line's text maps as a one-line scalar of its style would, and the folds map to nothing.
  :func:`fold_cutter` says which bytes to delete for words on either side of a fold.

Every map is verified: the value rebuilt from the source must equal the value libyaml decoded,
otherwise the map is empty. A wrong map would be worse than none, because a fix would hit the
wrong bytes.

Offsets here are byte offsets into the value's UTF-8 encoding (``value.encode()``) and into the
file; the map is an :class:`~vllm_lint.frontends.embedding.Embedding` (the value is its text).
"""

from __future__ import annotations

from vllm_lint.frontends.embedding import Embedding
from vllm_lint.launch import Span

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Callable, Optional

__all__ = ["fold_cutter", "map_scalar"]


def _plain(src: bytes, fstart: int, value: bytes) -> list[tuple[int, int, int]]:
    if b"\n" in src:
        return _folded_flow(src, fstart, value, _plain_line)
    if src == value and b"\r" not in src:
        return [(0, fstart, len(value))] if value else []
    return []


def _single(src: bytes, fstart: int, value: bytes) -> list[tuple[int, int, int]]:
    # src includes the quotes
    if len(src) < 2 or src[:1] != b"'" or src[-1:] != b"'":
        return []
    body = src[1:-1]
    if b"\n" in body:
        return _folded_flow(body, fstart + 1, value, _single_line)
    if b"\r" in body:
        return []
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
    if b"\n" in body:
        return _folded_flow(body, fstart + 1, value, _double_line)
    if b"\r" in body:
        return []
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


if TYPE_CHECKING:
    _Items = list[tuple[bytes, Optional[int]]]  # (value bytes, file offset of their spelling or None)


def _plain_line(line: bytes, off: int) -> tuple[_Items, bool]:
    return [(line, off)], False


def _single_line(line: bytes, off: int) -> tuple[_Items, bool]:
    items: _Items = []
    for k, run in enumerate(line.split(b"''")):
        if k:
            items.append((b"'", None))  # the escaped quote
        if run:
            items.append((run, off))
        off += len(run) + 2
    return items, False


def _double_line(line: bytes, off: int) -> tuple[_Items, bool]:
    """The items of one line of a double-quoted scalar, and whether it ends in an escaped line
    break (``\\`` at its end: the break and the next line's indentation vanish)."""
    items: _Items = []
    i, n = 0, len(line)
    while i < n:
        j = line.find(b"\\", i)
        if j < 0:
            j = n
        if j > i:
            items.append((line[i:j], off + i))
        if j >= n:
            break
        if j + 1 >= n:
            return items, True
        c = line[j + 1]
        if c in _SIMPLE_ESCAPES:
            items.append((_SIMPLE_ESCAPES[c], None))
            i = j + 2
        elif c in _HEX_LEN:
            k = _HEX_LEN[c]
            items.append((chr(int(line[j + 2 : j + 2 + k], 16)).encode("utf-8", "surrogatepass"), None))
            i = j + 2 + k
        else:
            raise ValueError("unknown escape")
    return items, False


def _folded_flow(body: bytes, base: int, value: bytes, line_items) -> list[tuple[int, int, int]]:
    """A plain or quoted scalar over several lines (``body``: its text inside the quotes, at file
    offset ``base``): the map of :func:`_fold`, if its value is ``value``."""
    out, segs = _fold(body, base, line_items)
    return segs if out == value else []


def _fold(body: bytes, base: int, line_items) -> tuple[bytes, list[tuple[int, int, int]]]:
    """The value of a plain or quoted scalar's ``body`` and its map. Line folding drops each
    line's leading and trailing blanks and joins lines with a space, or with one newline per empty
    line between them (none after an escaped break); the folds map to nothing, each line's text
    (``line_items``: its runs, escapes unmapped) to where it is written."""
    lines: list[tuple[int, bytes]] = []
    pos = 0
    while True:
        e = body.find(b"\n", pos)
        line = body[pos:] if e < 0 else body[pos:e]
        lines.append((pos, line[:-1] if e >= 0 and line.endswith(b"\r") else line))
        if e < 0:
            break
        pos = e + 1
    segs: list[tuple[int, int, int]] = []
    out = bytearray()
    last = len(lines) - 1
    empty = 0  # empty lines since the last line with text
    escaped = False  # the last line with text ended in an escaped break
    for i, (off, line) in enumerate(lines):
        lead = len(line) - len(line.lstrip(b" \t")) if i else 0
        if 0 < i < last and lead == len(line):
            empty += 1
            continue
        if i:
            out += b"\n" * empty if escaped or empty else b" "
        items, escaped = line_items(line[lead:], base + off + lead)
        if i < last and not escaped and items and items[-1][1] is not None:
            text, at = items[-1]
            items[-1] = (text.rstrip(b" \t"), at)
        for text, at in items:
            if at is not None and text:
                segs.append((len(out), at, len(text)))
            out += text
        empty = 0
    return bytes(out), segs


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


def map_scalar(data: bytes, start: int, end: int, style: Optional[str], value: str) -> Embedding:
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
    return Embedding(vb, segs)


_LINE_ITEMS = {"": _plain_line, "'": _single_line, '"': _double_line}


def fold_cutter(data: bytes, start: int, end: int, style: Optional[str],
                m: Embedding) -> Optional[Callable[[int, int], Optional[Span]]]:
    """For a plain or quoted scalar over several lines (``data[start:end]``, ``m`` its map):
    ``cut(s, e)``, the file bytes to delete so that its value loses value bytes ``[s, e)``, where
    they are no one verbatim run (a fold between words: the line break and indentation go with
    the words). A cut starts and ends in a run or at the edge of a fold, and the scalar folded
    again without those bytes must read as the value without them; else None. None for any
    other scalar."""
    if style == ">":
        return _block_cutter(data, start, end, m)
    line_items = _LINE_ITEMS.get(style or "")
    if line_items is None or not m.segments or b"\n" not in data[start:end]:
        return None
    base = start + (1 if style else 0)
    body = data[base : end - (1 if style else 0)]
    value = m.text

    def reads_as_cut(fs: int, fe: int, s: int, e: int) -> bool:
        try:
            folded, _segs = _fold(body[: fs - base] + body[fe - base :], base, line_items)
        except (ValueError, IndexError):
            return False
        return folded == value[:s] + value[e:]

    return _checked_cutter(m, reads_as_cut)


def _checked_cutter(m: Embedding, reads_as_cut: Callable[[int, int, int, int], bool]
                    ) -> Callable[[int, int], Optional[Span]]:
    """The cutter of a folded scalar: a verbatim run is cut as it is; a cut across a fold runs
    between the fold edges (:func:`_edge`) and is kept when ``reads_as_cut(file_start, file_end,
    value_start, value_end)`` says the scalar without those bytes is the value without them."""
    segs = m.segments

    def cut(s: int, e: int) -> Optional[Span]:
        sp = m.span(s, e)
        if sp is not None:
            return sp
        fs, fe = _edge(segs, s, True), _edge(segs, e, False)
        if fs is None or fe is None or fe <= fs:
            return None
        return Span(fs, fe) if reads_as_cut(fs, fe, s, e) else None

    return cut


def _edge(segs: list[tuple[int, int, int]], off: int, at_start: bool) -> Optional[int]:
    """The file offset where a cut that starts (``at_start``) or ends at value byte ``off``
    starts or ends: inside a run, or at a fold's edge (after the run before it, before the run
    after it); None in the middle of a fold."""
    for v, f, ln in segs:
        if (v <= off < v + ln) if at_start else (v < off <= v + ln):
            return f + off - v
    for v, f, ln in segs:
        if at_start and off == v + ln:
            return f + ln
        if not at_start and off == v:
            return f
    return None


def _block_cutter(data: bytes, start: int, end: int, m: Embedding) -> Optional[Callable[[int, int], Optional[Span]]]:
    """:func:`fold_cutter` of a ``>`` block: block folding keeps more-indented lines and empty
    lines apart, so each cut is checked by loading the block, cut, with libyaml."""
    src = data[start:end]
    header = src.split(b"\n", 1)[0]
    if not m.segments or any(c in b"123456789" for c in header.split(b"#", 1)[0]):
        return None  # an indentation indicator is relative to the parent: not loadable alone
    value = m.text

    def reads_as_cut(fs: int, fe: int, s: int, e: int) -> bool:
        from vllm_lint import libyaml

        try:
            loaded = libyaml.load(b"k: " + src[: fs - start] + src[fe - start :])
        except Exception:  # yaml.YAMLError: the cut block does not load
            return False
        want = (value[:s] + value[e:]).decode("utf-8", "surrogatepass")
        return isinstance(loaded, dict) and loaded.get("k") == want

    return _checked_cutter(m, reads_as_cut)
