"""Reading a database file in pieces, without decoding the rest of it.

Every database file is canonical JSON (``db.dump_json``: an object, sorted keys, a two-space
indent, one final newline), so a line's indentation gives its depth: a top-level key starts a
line with exactly two spaces, an entry of a top-level table (``"env": {...}``) or an element of a
top-level list (the ``options`` of a release) exactly four. :class:`Doc` finds a top-level key's line
when it is first asked for, and decodes a key's value, one table entry or one list element (an
option record) only when asked: a lint reads a handful of the thousands of entries of the index
and of its release file.

A file is read this way only when its bytes are the ones its writer certified: the index carries
the CRC-32 of its own bytes (``crc32``, the eight digits themselves excepted) and of each release
file it was compiled from whose pieces read as the whole does (``release_crc32``,
``db.compile_index``). Any other file (hand-edited, truncated, corrupted, written by an older
vllm-lint) is decoded whole and checked as before, and refused with the same one-line error.
"""

from __future__ import annotations

from ..record import lazy_json as json  # (json.loads without the json package: record.json_loads)

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Iterator, Optional

#: the index's own checksum: ``"crc32": "<8 hex digits>"``, its digits left out of the sum
CRC_LINE = b'\n  "crc32": "'
#: written in place of the digits before the sum is known (any 8 digits give the same sum)
CRC_PLACEHOLDER = "00000000"

MISSING: Any = object()


def crc32(data: bytes, skip: Optional[int] = None) -> int:
    """CRC-32 of ``data``; with ``skip``, of ``data`` without the eight bytes at ``skip``.
    (``binascii``: the YAML loader imports it anyway; ``zlib`` is the same sum, not yet loaded.)"""
    import binascii

    if skip is None:
        return binascii.crc32(data)
    view = memoryview(data)
    return binascii.crc32(view[skip + 8:], binascii.crc32(view[:skip]))


def checksum_at(data: bytes) -> int:
    """Where the digits of the file's own ``crc32`` entry start, or -1."""
    p = data.find(CRC_LINE)
    return p + len(CRC_LINE) if p >= 0 else -1


def own_checksum_holds(data: bytes) -> bool:
    """Whether ``data`` carries its own ``crc32`` entry and the sum matches."""
    at = checksum_at(data)
    if at < 0 or data[at + 8:at + 9] != b'"':
        return False
    try:
        want = int(data[at:at + 8], 16)
    except ValueError:
        return False
    return crc32(data, at) == want


def with_checksum(data: bytes) -> bytes:
    """``data`` (canonical bytes holding ``"crc32": CRC_PLACEHOLDER``) with its sum filled in."""
    at = checksum_at(data)
    if at < 0:
        raise ValueError("no crc32 entry to fill")
    return data[:at] + b"%08x" % crc32(data, at) + data[at + 8:]


def quoted(name: str) -> Optional[bytes]:
    """``name`` as the file writes it (a JSON string, ``ensure_ascii=False``); None where no file
    can hold it (a lone surrogate)."""
    try:
        if name.isprintable() and '"' not in name and "\\" not in name:
            return b'"' + name.encode() + b'"'
        return json.dumps(name, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return None


class Doc:
    """The top-level entries of one canonical database file, each found and decoded when first
    asked (memoised)."""

    __slots__ = ("data", "_found", "_all", "_values")

    def __init__(self, data: bytes) -> None:
        if not (data.startswith(b'{\n  "') and data.endswith(b"\n}\n")):
            raise ValueError("not a canonical database file")
        self.data = data
        self._found: dict[str, Optional[tuple[int, int]]] = {}
        self._all: Optional[dict[str, tuple[int, int]]] = None
        self._values: dict[str, Any] = {}

    def _value_end(self, vs: int) -> int:
        """Where the value starting at ``vs`` ends: a table or list at its closing line (two
        spaces), anything else at the end of its line (the comma before the next key left out)."""
        data = self.data
        c = data[vs]
        if c == 0x7B and data[vs + 1] != 0x7D:  # "{" of a table that is not "{}"
            return data.index(b"\n  }", vs) + 4
        if c == 0x5B and data[vs + 1] != 0x5D:  # "[" of a list that is not "[]"
            return data.index(b"\n  ]", vs) + 4
        end = data.index(b"\n", vs)
        return end - 1 if data[end - 1] == 0x2C else end

    def span(self, key: str) -> Optional[tuple[int, int]]:
        """(start, end) of the value of a top-level key, or None. Its line (``\\n  "key": ``, the
        only line at that depth naming it) is looked for between the keys found so far that sort
        before and after it (the file sorts its keys); a long needle, so the search skips fast."""
        found = self._found
        if key in found:
            return found[key]
        if self._all is not None:
            return self._all.get(key)
        data = self.data
        lo, hi = 0, len(data)
        for k, sp in found.items():
            if sp is not None:
                if k < key:
                    lo = max(lo, sp[1])
                elif sp[0] < hi:
                    hi = sp[0]
        needle = b'\n  "' + key.encode() + b'": '
        # the last keys (version, versions, serve_checks, ...) from the end: no scan of the rest
        p = data.rfind(needle, lo, hi) if lo == 0 and hi == len(data) and key >= "r" else data.find(needle, lo, hi)
        sp = found[key] = None if p < 0 else (p + len(needle), self._value_end(p + len(needle)))
        return sp

    @property
    def spans(self) -> dict[str, tuple[int, int]]:
        """Every top-level key with the (start, end) of its value, in the file's order."""
        if self._all is None:
            data = self.data
            spans: dict[str, tuple[int, int]] = {}
            p = 1  # at the line "\n  \"key\": "
            while True:
                k1 = data.index(b'": ', p + 4)
                vs = k1 + 3
                end = self._value_end(vs)
                spans[data[p + 4:k1].decode()] = (vs, end)
                if data[end] != 0x2C:  # no comma: the last key
                    break
                p = end + 1
            self._all = spans
        return self._all

    def value(self, key: str, default: Any = None) -> Any:
        """The decoded value of a top-level key (``default`` where the file has none)."""
        v = self._values.get(key, MISSING)
        if v is MISSING:
            span = self.span(key)
            if span is None:
                return default
            v = self._values[key] = json.loads(self.data[span[0]:span[1]])
        return v

    def raw(self, key: str) -> bytes:
        span = self.span(key)
        return self.data[span[0]:span[1]] if span is not None else b""

    # ---- a top-level table: {"name": value, ...}, one entry per key at depth two
    def entry(self, key: str, name: bytes) -> Any:
        """The decoded value of entry ``name`` (as :func:`quoted` gives it) of the top-level table
        ``key``, or MISSING."""
        span = self.span(key)
        if span is None:
            return MISSING
        start, end = span
        needle = b"\n    " + name + b": "
        p = self.data.find(needle, start, end)
        if p < 0:
            return MISSING
        vs = p + len(needle)
        q = self.data.find(b'\n    "', vs, end)
        return json.loads(self.data[vs:q - 1 if q >= 0 else end - 4])

    def table_is_empty(self, key: str) -> bool:
        return self.raw(key) in (b"", b"{}", b"[]", b"null")

    # ---- a top-level list of objects (a release's options), one element per "{" at depth two
    def element_at(self, start: int) -> Any:
        """The decoded element whose line starts at ``start`` (an offset from :meth:`elements_with`)."""
        end = self.data.find(b"\n    }", start)
        return json.loads(self.data[start + 5:end + 6])

    def elements_with(self, key: str, needle: bytes) -> Iterator[int]:
        """The start of each element of the top-level list ``key`` whose bytes hold ``needle``, in
        the file's order (each once)."""
        span = self.span(key)
        if span is None:
            return
        start, end = span
        data = self.data
        p = data.find(needle, start, end)
        while p >= 0:
            at = data.rfind(b"\n    {", start, p)
            after = data.find(b"\n    }", p, end)
            if at < 0 or after < 0:
                return
            yield at
            p = data.find(needle, after, end)

    def element_texts(self, key: str) -> list[tuple[int, bytes]]:
        """The start (as :meth:`element_starts`) and the JSON text (as :meth:`element_at` decodes
        it) of every element of the top-level list ``key``, in order."""
        span = self.span(key)
        if span is None:
            return []
        start, end = span
        data = self.data
        find = data.find
        out = []
        p = find(b"\n    {", start, end)
        while p >= 0:
            q = find(b"\n    }", p, end)
            out.append((p, data[p + 5:q + 6]))
            p = find(b"\n    {", q, end)
        return out

    def element_starts(self, key: str) -> list[int]:
        """The start of every element of the top-level list ``key``, in order."""
        span = self.span(key)
        if span is None:
            return []
        start, end = span
        data = self.data
        out = []
        p = data.find(b"\n    {", start, end)
        while p >= 0:
            out.append(p)
            p = data.find(b"\n    {", data.find(b"\n    }", p, end), end)
        return out


def reads_alike(data: bytes, whole: dict[str, Any], lists: tuple[str, ...] = (),
                tables: tuple[str, ...] = ()) -> bool:
    """Whether :class:`Doc` reads ``data`` as ``json.loads`` reads it (``whole``): every top-level
    value, every entry of the top-level tables ``tables`` and every element of the top-level
    lists ``lists``, each taken on its own. What the writer checks before it certifies a file."""
    try:
        doc = Doc(data)
        if list(doc.spans) != list(whole) or any(doc.value(k) != v for k, v in whole.items()):
            return False
        if any(Doc(data).span(k) != sp for k, sp in doc.spans.items()):  # each found alone
            return False
        found = Doc(data)  # and found one after another
        if any(found.span(k) != doc.spans[k] for k in sorted(whole, reverse=True)):
            return False
        for key in tables:
            table = whole.get(key)
            if isinstance(table, dict):
                for name, value in table.items():
                    q = quoted(name)
                    if q is None or doc.entry(key, q) != value:
                        return False
        for key in lists:
            items = whole.get(key)
            if isinstance(items, list):
                starts = doc.element_starts(key)
                if len(starts) != len(items) or any(doc.element_at(s) != v for s, v in zip(starts, items)):
                    return False
    except (ValueError, IndexError, UnicodeDecodeError):
        return False
    return True
