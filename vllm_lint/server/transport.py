"""The server's stdio: frames read on the event loop's own thread, the hot notifications applied
without cattrs, everything else handed to pygls unchanged; and the first diagnostics out before
pygls is loaded.

pygls reads stdin through a thread pool, one hop per header line and per body, and structures
every message into lsprotocol types; a keystroke's ``didChange`` then costs several thread
wake-ups (each a scheduling delay on a busy machine) before the lint starts. Here the loop
watches stdin itself (``add_reader``): one wake-up per burst of input, ``didOpen`` and
``didChange`` read as plain JSON and applied to pygls' workspace directly, and a lint can look
for newer input (``drain``) before it starts and before it publishes, so that a result for a
version already replaced on the wire is dropped.

Start-up: importing lsprotocol (about a thousand attrs classes) costs most of the server's
start. ``Startup`` answers ``initialize`` with the server's capabilities written out here (a test
holds them equal to what pygls computes), lints the first opened document and publishes its
diagnostics; pygls is loaded after that, or as soon as a message needs it, and is then shown the
messages it missed (its answer to ``initialize`` discarded), so that from then on it is as if it
had served from the start. Where stdin cannot be watched (a regular file, Windows' proactor
loop), a thread reads it and hands the chunks to the loop (``_pump``): the same framing
(``wire.Reader``, which resynchronises after a bad header) and dispatch.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import stat
import sys
from typing import Any, Callable, Optional

from .. import __version__
from . import core
from .wire import INVALID_PARAMS, INVALID_REQUEST, ProtocolError, Reader, frame, parse_body

log = logging.getLogger("vllm_lint.server")


def _watchable(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class FastDispatch:
    """Reads frames from a non-blocking file descriptor on the loop and dispatches them: hot
    notifications to the server's own handlers, the rest through ``server.protocol``; before
    ``server`` exists, to ``startup`` first."""

    def __init__(self, server, fd: int, startup: Optional["Startup"] = None) -> None:
        self.server = server
        self.fd = fd
        self.startup = startup
        self.reader = Reader()
        self.eof = False
        self.closed: Optional[asyncio.Future] = None
        self.hot = {"textDocument/didOpen": self._did_open, "textDocument/didChange": self._did_change}

    # -- reading
    def drain(self) -> None:
        """Read whatever input is waiting (without blocking) and dispatch every whole message.
        (Fed by a thread, ``fd`` None: the input comes through ``feed`` only.)"""
        if self.eof or self.fd is None:
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
            self.reader.feed(chunk)
            if len(chunk) < 1 << 20:
                break
        self._dispatch_buffered()

    def _dispatch_buffered(self) -> None:
        while True:
            got = self.reader.next()
            if got is None:
                return
            msg, error = got
            if error is not None:
                self.answer(error)
            else:
                self.dispatch(msg)

    def feed(self, chunk: bytes) -> None:
        """Input read elsewhere (``_pump``); empty: the end of it."""
        if not chunk:
            self._close()
            return
        self.reader.feed(chunk)
        self._dispatch_buffered()

    def _close(self) -> None:
        self.eof = True
        if self.fd is not None:
            asyncio.get_running_loop().remove_reader(self.fd)
        if self.closed is not None and not self.closed.done():
            self.closed.set_result(None)

    # -- dispatch
    def receive(self, body: bytes) -> None:
        """Dispatch one frame's body."""
        msg, error = parse_body(body)
        if error is not None:
            self.answer(error)
        else:
            self.dispatch(msg)

    def dispatch(self, msg: Any) -> None:
        try:
            invalid = _invalid_request(msg)
            if invalid is not None:
                if isinstance(msg, dict) and "id" not in msg:  # a notification is never answered
                    log.warning("%s: a notification dropped", invalid.message)
                else:
                    self.answer(invalid)
                return
            if self.server is None:
                if self.startup.take(msg):
                    return
                self.load_server()
            self.handle(msg)
        except Exception as exc:  # noqa: BLE001 - as pygls' own reader: log, report, keep serving
            self._report(exc)

    def answer(self, error: ProtocolError) -> None:
        """A JSON-RPC error for a message that cannot be served (a request is never left waiting)."""
        log.warning("%s (id %r)", error.message, error.id)
        writer = self.server.protocol.writer if self.server is not None else self.startup.writer
        if writer is not None:
            writer.write(frame(error.response()))

    def _report(self, exc: Exception) -> None:
        log.exception("Unable to handle message")
        if self.server is not None:
            from pygls.exceptions import JsonRpcException

            self.server._report_server_error(exc, JsonRpcException)

    def handle(self, msg: dict) -> None:
        protocol = self.server.protocol
        read = self.hot.get(msg.get("method")) if "id" not in msg else None
        apply = None
        if read is not None and msg.get("jsonrpc") == "2.0" and not protocol._shutdown:
            try:
                apply = read(msg["params"])
            except (KeyError, TypeError, ValueError):
                pass  # a shape the fast path does not expect: pygls says what is wrong
        if apply is not None:
            apply()
            return
        request = "id" in msg and "method" in msg
        if request and protocol._shutdown and msg["method"] != "exit":
            self.answer(ProtocolError(INVALID_REQUEST, "Invalid request: the server is shutting down", msg["id"]))
            return
        if "method" in msg and "params" not in msg:
            msg = {**msg, "params": None}  # JSON-RPC lets a message leave them out; pygls' types do not
        try:
            structured = protocol.structure_message(msg)
        except Exception:  # noqa: BLE001 - pygls logged what does not fit the method's params
            if request:
                self.answer(ProtocolError(INVALID_PARAMS, f"Invalid params for {msg['method']}", msg["id"]))
            return
        protocol.handle_message(structured)

    def load_server(self) -> None:
        """Load pygls and the server, and show it what ``startup`` took in its place."""
        if self.server is not None:
            return
        from .protocol import build_server

        st = self.startup
        server = build_server(st.session, st.debounce)
        import threading

        server._stop_event = threading.Event()  # what pygls' shutdown() sets
        server.protocol.set_writer(st.writer)
        server.dispatch = self
        self.server = server
        for msg in st.taken:
            if msg.get("method") == "initialize":
                server.protocol.set_writer(_Discard())  # the client has its answer already
                try:
                    self.handle(msg)
                finally:
                    server.protocol.set_writer(st.writer)
            elif msg.get("method") == "textDocument/didOpen":
                item = _text_document_item(msg["params"])
                server.workspace.put_text_document(item)
                server.analyses[item.uri] = st.opened[item.uri]
            else:
                self.handle(msg)
        st.taken.clear()

    # each reads a message's params (raising KeyError or TypeError where they are not as expected)
    # and returns what applies it, so that nothing is applied twice when pygls takes over
    def _did_open(self, params: dict):
        item = _text_document_item(params)

        def apply() -> None:
            self.server.workspace.put_text_document(item)
            self.server.on_open(item.uri)
        return apply

    def _did_change(self, params: dict):
        from lsprotocol import types

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


def _invalid_request(msg: Any) -> Optional[ProtocolError]:
    """Why ``msg`` is not a JSON-RPC 2.0 message the server can take (-32600), or None. Responses
    from the client (no method) pass: pygls matches them to its requests and logs what it
    cannot use."""
    if not isinstance(msg, dict):
        return ProtocolError(INVALID_REQUEST, "Invalid request: a message is a JSON object")
    if "method" not in msg:
        return None
    rid = msg.get("id")
    readable = isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool))
    if "id" in msg and not readable:
        return ProtocolError(INVALID_REQUEST, "Invalid request: an id is a number or a string")
    if msg.get("jsonrpc") != "2.0":
        return ProtocolError(INVALID_REQUEST, 'Invalid request: "jsonrpc" must be "2.0"', rid if readable else None)
    if not isinstance(msg["method"], str):
        return ProtocolError(INVALID_REQUEST, "Invalid request: a method is a string", rid if readable else None)
    return None


def _text_document_item(params: dict):
    """A ``didOpen``'s document, checked (KeyError or TypeError where it is not as expected)."""
    from lsprotocol import types

    td = params["textDocument"]
    item = types.TextDocumentItem(uri=td["uri"], language_id=td["languageId"], version=td["version"],
                                  text=td["text"])
    if not (isinstance(item.text, str) and isinstance(item.uri, str) and isinstance(item.version, int)):
        raise TypeError("text document")
    return item


class _Discard:
    def write(self, data: bytes) -> None:
        pass


class _Writer:
    """Writes whole frames to a binary stream (pygls' writer interface)."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def write(self, data: bytes) -> None:
        self.stream.write(data)
        self.stream.flush()

    def close(self) -> None:
        self.stream.close()


# What the server offers, as pygls computes it from the registered features (a test compares):
# written out so that ``initialize`` is answered before lsprotocol is imported. pygls adds
# ``willSave: false`` and ``willSaveWaitUntil: false`` for a client that can send them, which
# says no more than leaving them out.
CAPABILITIES: dict[str, Any] = {
    "textDocumentSync": {"openClose": True, "change": 2, "save": True},
    "completionProvider": {"triggerCharacters": ["-"]},
    "hoverProvider": True,
    "codeActionProvider": {"codeActionKinds": ["quickfix", "source.fixAll.vllm-lint"], "resolveProvider": False},
    "executeCommandProvider": {"commands": []},
    "diagnosticProvider": {"interFileDependencies": True, "workspaceDiagnostics": False, "identifier": "vllm-lint"},
    "workspace": {"workspaceFolders": {"supported": True, "changeNotifications": True}, "fileOperations": {}},
}


def position_encoding(capabilities: Any) -> str:
    """The encoding pygls picks: the client's first of utf-8/16/32, else UTF-16."""
    general = capabilities.get("general") if isinstance(capabilities, dict) else None
    encodings = general.get("positionEncodings") if isinstance(general, dict) else None
    for enc in encodings if isinstance(encodings, list) else ():
        if enc in ("utf-8", "utf-16", "utf-32"):
            return enc
    return "utf-16"


class Startup:
    """Serves in pygls' place until it is loaded: answers ``initialize``, takes ``initialized``
    and lints the first opened document; ``take`` says no to anything else (pygls is loaded
    for it). ``taken``: what pygls is to be shown when it loads."""

    def __init__(self, session: core.Session, debounce: float, writer, schedule_load: Callable[[], None]) -> None:
        self.session = session
        self.debounce = debounce
        self.writer = writer
        self.schedule_load = schedule_load
        self.taken: list[dict] = []
        self.opened: dict[str, tuple[int, core.Analysis]] = {}
        self.encoding = "utf-16"
        self.pulls = False

    def take(self, msg: dict) -> bool:
        method = msg.get("method")
        if msg.get("jsonrpc") != "2.0":
            return False
        if method == "initialize" and "id" in msg and not self.taken:
            params = msg.get("params")
            if not isinstance(params, dict) or not isinstance(params.get("capabilities"), dict):
                return False  # pygls says what is wrong with it
            caps = params["capabilities"]
            self.encoding = position_encoding(caps)
            self.pulls = bool(isinstance(caps.get("textDocument"), dict) and caps["textDocument"].get("diagnostic"))
            debounce = core.apply_initialization_options(self.session, params.get("initializationOptions"))
            if debounce is not None:
                self.debounce = debounce
            self.taken.append(msg)
            self._send({"jsonrpc": "2.0", "id": msg["id"], "result": {
                "capabilities": {"positionEncoding": self.encoding, **CAPABILITIES},
                "serverInfo": {"name": "vllm-lint", "version": __version__}}})
            return True
        if not self.taken or "id" in msg:
            return False
        if method == "initialized":
            self.taken.append(msg)
            return True
        if method == "textDocument/didOpen" and not self.opened and not self.pulls:
            params = msg.get("params")
            td = params.get("textDocument") if isinstance(params, dict) else None
            if not isinstance(td, dict):
                return False
            uri, version, text, language = td.get("uri"), td.get("version"), td.get("text"), td.get("languageId")
            if not (isinstance(uri, str) and isinstance(version, int) and isinstance(text, str)
                    and isinstance(language, str)):
                return False
            try:
                analysis = self.session.analyse(core.uri_to_path(uri), text, language)
            except Exception:  # noqa: BLE001 - the server lints it again and reports what went wrong
                return False
            if analysis.error:
                return False  # the server shows it (once)
            pos = analysis.positions(self.encoding)
            self.opened[uri] = (version, analysis)
            self.taken.append(msg)
            self._send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": {
                "uri": uri, "diagnostics": [core.diagnostic_json(self.session, pos, d) for d in analysis.diagnostics],
                "version": version}})
            self.schedule_load()
            return True
        return False

    def _send(self, message: dict) -> None:
        self.writer.write(frame(message))


def _pump(stream, loop: asyncio.AbstractEventLoop, dispatch: FastDispatch) -> None:
    """Where the loop cannot watch stdin: read it on a thread of its own and hand each chunk to
    the loop (the same framing and dispatch as when it can)."""
    while True:
        try:
            chunk = stream.read1(1 << 20)
        except (OSError, ValueError):
            chunk = b""
        try:
            loop.call_soon_threadsafe(dispatch.feed, chunk)
        except RuntimeError:  # the loop has ended
            return
        if not chunk:
            return


def serve(db_path: Optional[str] = None, debounce: float = 0.25) -> None:
    """Serve over stdin/stdout until the client says exit or closes its end."""
    logging.basicConfig(level=logging.WARNING)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    fd = stdin.fileno()
    session = core.Session(db_path)
    watched = os.name == "posix" and _watchable(fd)
    writer = _Writer(stdout)
    dispatch: Optional[FastDispatch] = None

    async def run() -> None:
        nonlocal dispatch
        loop = asyncio.get_running_loop()

        def load_soon() -> None:
            loop.call_soon(_load)

        def _load() -> None:
            try:
                dispatch.load_server()
            except Exception as exc:  # noqa: BLE001
                dispatch._report(exc)

        dispatch = FastDispatch(None, fd if watched else None, Startup(session, debounce, writer, load_soon))
        dispatch.closed = loop.create_future()
        if watched:
            os.set_blocking(fd, False)
            loop.add_reader(fd, dispatch.drain)
        else:
            import threading

            threading.Thread(target=_pump, args=(stdin, loop, dispatch), daemon=True).start()
        await dispatch.closed

    try:
        asyncio.run(run())
    except BrokenPipeError:
        log.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        try:
            if watched:
                os.set_blocking(fd, True)
        except OSError:
            pass
        if dispatch is not None and dispatch.server is not None:
            dispatch.server.dispatch = None
            dispatch.server.shutdown()
