"""JSON-RPC messages as they go over the server's stdio (the base protocol's header and body): a
frame written, and frames read back out of a byte stream that may carry anything.

A reader that trusts the stream stops answering after one bad header: it reads the next request's
header as part of a body or skips it as garbage, and every later frame is misread too. ``Reader``
resynchronises instead. A frame starts at a header block (``Name: value`` lines, exactly one
``Content-Length`` of digits, ended by an empty line); where that is not what the stream holds,
reading resumes at the next ``Content-Length:``. A JSON body can never contain a
``Content-Length: <digits>`` line (outside a string the words are not JSON, inside one a raw line
break is not allowed), so a body that would reach past the next header is cut there: a header
that claims more than the client sent cannot swallow the requests after it. A body that does not
parse is answered with a parse error (-32700) with the request's id where it can be read, and
reading resumes just after the start of its header, so a valid frame that a wrong length cut
into, or whose header a fragment before it took in, is still found.
"""

from __future__ import annotations

import json
import re
from typing import Any, Optional, Union

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602

MAX_HEADER = 4096  # bytes of a header block; a longer run without its end is not a header
MAX_BODY = 64 << 20  # a document at the lint's input limit (10 MiB), JSON-escaped, fits

_HEADER_END = b"\r\n\r\n"
_FRAME_START = re.compile(rb"(?i)content-length:")
# a Content-Length line, which no JSON text can contain (see above)
_LENGTH_LINE = re.compile(rb"(?i)content-length:[ \t]{0,16}\d{1,15}[ \t]{0,16}\r?\n\Z")
_LENGTH_LINE_MAX = 64
_DIGIT_LINE_END = re.compile(rb"\d[ \t]{0,16}\r?\n")
_FIELD_NAME = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # an HTTP token
# a request's id written first (after "jsonrpc"), as clients write it: read from a body that does
# not parse as a whole
_LEADING_ID = re.compile(r'^\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"]*"\s*,\s*)?"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")\s*[,}]')


class ProtocolError:
    """What a frame that cannot be served is answered with: a JSON-RPC error for ``id``
    (None: the id could not be read, or there is none)."""

    __slots__ = ("code", "message", "id")

    def __init__(self, code: int, message: str, id: Union[int, str, None] = None) -> None:
        self.code = code
        self.message = message
        self.id = id

    def response(self) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": self.id, "error": {"code": self.code, "message": self.message}}


def frame(message: dict[str, Any]) -> bytes:
    """A JSON-RPC message with its header (ASCII JSON: the byte length is the string's)."""
    body = json.dumps(message, separators=(",", ":"))
    return f"Content-Length: {len(body)}\r\n\r\n{body}".encode("ascii")


def _request_id(value: Any) -> Union[int, str, None]:
    if isinstance(value, dict):
        rid = value.get("id")
        if isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)):
            return rid
    return None


def _readable_id(text: str) -> Union[int, str, None]:
    """The id of a request whose body does not parse, where it can be read."""
    try:
        return _request_id(json.loads(text))
    except (ValueError, RecursionError):
        pass
    m = _LEADING_ID.match(text)
    if m is None:
        return None
    try:
        return json.loads(m.group(1))
    except ValueError:
        return None


def parse_body(body: bytes) -> tuple[Any, Optional[ProtocolError]]:
    """A body's JSON value, or the parse error (-32700) to answer it with: the body must be UTF-8
    JSON (the base protocol's only content type)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None, ProtocolError(PARSE_ERROR, "Parse error: the message is not UTF-8",
                                   _readable_id(body.decode("utf-8", "replace")))
    try:
        return json.loads(text), None
    except ValueError as e:
        return None, ProtocolError(PARSE_ERROR, f"Parse error: {e}", _readable_id(text))
    except RecursionError:  # [[[[...]]]] deeper than the interpreter's stack
        return None, ProtocolError(PARSE_ERROR, "Parse error: nested too deeply", None)


def header_length(block: Union[bytes, bytearray]) -> Optional[int]:
    """The body length a header block declares, or None when it is not a header block: every
    line a ``Name: value`` field, and exactly one ``Content-Length`` of digits, the only
    ``content-length:`` in it (so that a fragment before a frame cannot take the frame's header
    into its own: ``Content-Length: 9\r\nX`` + ``Content-Length: 52``)."""
    block = bytes(block)
    if block.lower().count(b"content-length:") != 1:
        return None
    length = None
    for line in block.split(b"\r\n"):
        name, colon, value = line.partition(b":")
        if not colon or not _FIELD_NAME.fullmatch(name):
            return None
        if name.lower() == b"content-length":
            value = value.strip(b" \t")
            if length is not None or not value.isdigit() or len(value) > 15:
                return None
            length = int(value)
    return length


def header_line_in(buf: bytearray, lo: int, hi: int, floor: int) -> Optional[int]:
    """Where the first ``Content-Length`` line ending in ``buf[lo:hi]`` starts (not before
    ``floor``), or None. Only a line break after a digit is looked at more closely: JSON, even
    pretty-printed, has few of those, and a case-blind pattern tried at every byte is slow."""
    for end in _DIGIT_LINE_END.finditer(buf, lo, hi):
        m = _LENGTH_LINE.search(buf, max(floor, end.end() - _LENGTH_LINE_MAX), end.end())
        if m is not None:
            return m.start()
    return None


class Reader:
    """Frames read out of a byte stream, resynchronising after anything that is not one (see the
    module's description). ``feed`` the bytes as they come; ``next`` returns (message, None) or
    (None, error) for each frame read, and None when it needs more input."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.resync = False  # the buffer's start is not known to be a frame's
        self.scanned = 0  # how far the body being waited for is known to hold no header

    def feed(self, data: bytes) -> None:
        self.buf += data

    def next(self) -> Optional[tuple[Any, Optional[ProtocolError]]]:
        buf = self.buf
        while buf:
            if self.resync:
                m = _FRAME_START.search(buf)
                if m is None:  # keep what could be the start of a header cut by the read
                    del buf[:max(0, len(buf) - 14)]
                    return None
                del buf[:m.start()]
                self.resync = False
            end = buf.find(_HEADER_END, 0, MAX_HEADER + 4)
            if end < 0:
                if len(buf) < MAX_HEADER + 4 and _could_be_header(buf):
                    return None
                self._skip_one()
                continue
            length = header_length(buf[:end])
            if length is None:
                self._skip_one()
                continue
            start = end + 4
            if length > MAX_BODY:
                del buf[:start]
                self.resync = True  # the body, whatever of it comes, is passed over
                return None, ProtocolError(INVALID_REQUEST, f"Invalid request: a message of {length} bytes "
                                                            f"is over the limit of {MAX_BODY}")
            if len(buf) < start + length:
                # a header in what has come of the body: this frame is cut short there
                at = header_line_in(buf, max(start, self.scanned), len(buf), start)
                if at is None:
                    # (a line cut by the read, `...143` then `\r\n`, is looked at again with its end)
                    self.scanned = max(start, len(buf) - _LENGTH_LINE_MAX)
                    return None
                text = bytes(buf[start:at]).decode("utf-8", "replace")
                del buf[:at]
                self.scanned = 0
                return None, ProtocolError(PARSE_ERROR, "Parse error: the message ends before its declared "
                                                        "length (the next header follows)", _readable_id(text))
            body = bytes(buf[start:start + length])
            self.scanned = 0
            value, error = parse_body(body)
            if error is not None:  # a valid frame may start inside what was taken as this frame
                self._skip_one()
                return None, error
            del buf[:start + length]
            return value, None
        return None

    def _skip_one(self) -> None:
        """Not a frame at the buffer's start: read on from the next ``Content-Length:`` after it."""
        del self.buf[:1]
        self.resync = True
        self.scanned = 0


def _could_be_header(buf: bytearray) -> bool:
    """Whether ``buf`` (no header end in it yet) can still become a header block: every complete
    line a field. Garbage without line breaks waits for more (the next frame's header proves it
    garbage), as a header cut by a read does."""
    return all(_is_field(line) for line in bytes(buf).split(b"\r\n")[:-1])


def _is_field(line: bytes) -> bool:
    name, colon, _ = line.partition(b":")
    return bool(colon) and _FIELD_NAME.fullmatch(name) is not None
