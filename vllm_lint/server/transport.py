"""The server's stdio: frames read on the event loop's own thread, the hot notifications applied
without cattrs, everything else handed to pygls unchanged.

pygls reads stdin through a thread pool, one hop per header line and per body, and structures
every message into lsprotocol types; a keystroke's ``didChange`` then costs several thread
wake-ups (each a scheduling delay on a busy machine) before the lint starts. Here the loop
watches stdin itself (``add_reader``): one wake-up per burst of input, ``didOpen`` and
``didChange`` read as plain JSON and applied to pygls' workspace directly, and a lint can look
for newer input (``drain``) before it starts and before it publishes, so that a result for a
version already replaced on the wire is dropped. Where stdin cannot be watched (a regular file,
Windows' proactor loop), ``serve`` falls back to pygls' own reader.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import stat
from typing import Any, Optional

from lsprotocol import types

log = logging.getLogger("vllm_lint.server")

_HEADER_END = b"\r\n\r\n"
_LENGTH = re.compile(rb"(?im)^content-length:[ \t]*(\d+)[ \t]*\r?$")


def frame(message: dict[str, Any]) -> bytes:
    """A JSON-RPC message with its header (ASCII JSON: the byte length is the string's)."""
    body = json.dumps(message, separators=(",", ":"))
    return f"Content-Length: {len(body)}\r\n\r\n{body}".encode("ascii")


def _watchable(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class FastDispatch:
    """Reads frames from a non-blocking file descriptor on the loop and dispatches them: hot
    notifications to the server's own handlers, the rest through ``server.protocol``."""

    def __init__(self, server, fd: int) -> None:
        self.server = server
        self.fd = fd
        self.buf = bytearray()
        self.eof = False
        self.closed: Optional[asyncio.Future] = None
        self.hot = {types.TEXT_DOCUMENT_DID_OPEN: self._did_open,
                    types.TEXT_DOCUMENT_DID_CHANGE: self._did_change}

    # -- reading
    def drain(self) -> None:
        """Read whatever input is waiting (without blocking) and dispatch every whole message."""
        if self.eof:
            return
        while True:
            try:
                chunk = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:
                self._close()
                break
            self.buf += chunk
            if len(chunk) < 1 << 20:
                break
        self._dispatch_buffered()

    def _dispatch_buffered(self) -> None:
        while True:
            end = self.buf.find(_HEADER_END)
            if end < 0:
                return
            m = _LENGTH.search(self.buf, 0, end)
            if m is None:  # not a header we can read: skip it, as pygls' reader would
                del self.buf[:end + 4]
                continue
            start, length = end + 4, int(m.group(1))
            if len(self.buf) < start + length:
                return
            body = bytes(self.buf[start:start + length])
            del self.buf[:start + length]
            self.receive(body)

    def _close(self) -> None:
        self.eof = True
        loop = asyncio.get_running_loop()
        loop.remove_reader(self.fd)
        if self.closed is not None and not self.closed.done():
            self.closed.set_result(None)

    # -- dispatch
    def receive(self, body: bytes) -> None:
        protocol = self.server.protocol
        try:
            msg = json.loads(body)
            if not isinstance(msg, dict):
                raise ValueError("a JSON-RPC message is an object")
            read = self.hot.get(msg.get("method")) if "id" not in msg else None
            apply = None
            if read is not None and msg.get("jsonrpc") == "2.0" and not protocol._shutdown:
                try:
                    apply = read(msg["params"])
                except (KeyError, TypeError):
                    pass  # a shape the fast path does not expect: pygls says what is wrong
            if apply is not None:
                apply()
            else:
                protocol.handle_message(protocol.structure_message(msg))
        except Exception as exc:  # noqa: BLE001 - as pygls' own reader: log, report, keep serving
            log.exception("Unable to handle message")
            from pygls.exceptions import JsonRpcException

            self.server._report_server_error(exc, JsonRpcException)

    # each reads a message's params (raising KeyError or TypeError where they are not as expected)
    # and returns what applies it, so that nothing is applied twice when pygls takes over
    def _did_open(self, params: dict):
        td = params["textDocument"]
        item = types.TextDocumentItem(uri=td["uri"], language_id=td["languageId"], version=td["version"],
                                      text=td["text"])
        if not (isinstance(item.text, str) and isinstance(item.uri, str) and isinstance(item.version, int)):
            raise TypeError("text document")

        def apply() -> None:
            self.server.workspace.put_text_document(item)
            self.server.on_open(item.uri)
        return apply

    def _did_change(self, params: dict):
        td = params["textDocument"]
        ident = types.VersionedTextDocumentIdentifier(version=td["version"], uri=td["uri"])
        changes = []
        for c in params["contentChanges"]:
            if not isinstance(c["text"], str):
                raise TypeError("change text")
            if "range" in c:
                r = c["range"]
                rng = types.Range(start=types.Position(line=r["start"]["line"], character=r["start"]["character"]),
                                  end=types.Position(line=r["end"]["line"], character=r["end"]["character"]))
                changes.append(types.TextDocumentContentChangePartial(range=rng, text=c["text"],
                                                                      range_length=c.get("rangeLength")))
            else:
                changes.append(types.TextDocumentContentChangeWholeDocument(text=c["text"]))
        if not (isinstance(ident.uri, str) and isinstance(ident.version, int)):
            raise TypeError("text document")

        def apply() -> None:
            for change in changes:
                self.server.workspace.update_text_document(ident, change)
            self.server.on_change(ident.uri)
        return apply


def serve_stdio(server, stdin, stdout) -> None:
    """Serve ``server`` over ``stdin``/``stdout`` (binary streams) until the client says exit or
    closes its end; pygls' own reader where stdin cannot be watched by the loop."""
    from pygls.io_ import StdoutWriter

    fd = stdin.fileno()
    if os.name != "posix" or not _watchable(fd):
        server.start_io(stdin, stdout)
        return
    import threading

    server._stop_event = threading.Event()  # what pygls' shutdown() sets
    server.protocol.set_writer(StdoutWriter(stdout))

    async def run() -> None:
        loop = asyncio.get_running_loop()
        dispatch = FastDispatch(server, fd)
        dispatch.closed = loop.create_future()
        server.dispatch = dispatch
        os.set_blocking(fd, False)
        loop.add_reader(fd, dispatch.drain)
        await dispatch.closed

    try:
        asyncio.run(run())
    except BrokenPipeError:
        log.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.dispatch = None
        try:
            os.set_blocking(fd, True)
        except OSError:
            pass
        server.shutdown()
