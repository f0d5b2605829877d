"""``vllm-lint server``: the Language Server Protocol over stdio, on pygls.

Diagnostics are pushed on open, change (debounced) and save, and pulled for clients that ask
(``textDocument/diagnostic``); code actions offer each fix, a fix-all and a suppression; hover
tells an option's history; completion offers the options of the target release. All of it runs
in-process on the buffer's text through ``vllm_lint.server.core``, on the event loop's thread;
``vllm_lint.server.transport`` reads the input there and applies the hot notifications without
pygls' structuring. A result computed for a version the editor has since replaced is dropped.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from typing import Any, Optional
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .. import __version__
from . import core
from .wire import frame

log = logging.getLogger("vllm_lint.server")

FIX_ALL_KIND = "source.fixAll.vllm-lint"
CONFIG_NAMES = (".vllm-lint.toml", "pyproject.toml")
# the files other than a document that its findings depend on: its configuration, the project's
# pin of vLLM, a local model's config.json (watched, and a save of one re-lints every document)
WATCHED = ("**/.vllm-lint.toml", "**/pyproject.toml", "**/config.json",
           "**/requirements*.{txt,in}", "**/constraints*.{txt,in}")


def _is_watched_name(uri: str) -> bool:
    name = uri.rsplit("/", 1)[-1]
    return name in CONFIG_NAMES or name == "config.json" or (
        name.startswith(("requirements", "constraints")) and name.endswith((".txt", ".in")))


class VllmLintServer(LanguageServer):
    def __init__(self, session: Optional[core.Session] = None, debounce: float = 0.25) -> None:
        super().__init__("vllm-lint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.session = session or core.Session()
        self.debounce = debounce
        self.analyses: dict[str, tuple[Optional[int], core.Analysis]] = {}
        self._pending: dict[str, asyncio.Handle] = {}  # uri -> the lint waiting for its turn
        self._errors_shown: set[str] = set()
        self.dispatch = None  # transport.FastDispatch while it reads the input

    # -- what the client does
    @property
    def pull_mode(self) -> bool:
        """Whether the client pulls diagnostics (LSP 3.17): then nothing is pushed, since clients
        keep pushed and pulled diagnostics apart and would show each finding twice."""
        caps = self.client_capabilities
        return bool(caps and caps.text_document and caps.text_document.diagnostic)

    @property
    def encoding(self) -> str:
        enc = self.workspace.position_encoding if self.workspace else None
        return str(getattr(enc, "value", enc) or "utf-16")

    # -- linting
    def analyse_now(self, uri: str) -> core.Analysis:
        """Lint the document as it is now and remember the result for its version."""
        doc = self.workspace.get_text_document(uri)
        version = doc.version
        analysis = self.session.analyse(core.uri_to_path(uri), doc.source, doc.language_id)
        self.analyses[uri] = (version, analysis)
        return analysis

    def on_open(self, uri: str) -> None:
        self.schedule(uri, 0)

    def on_change(self, uri: str) -> None:
        self.schedule(uri, self.debounce)

    def schedule(self, uri: str, delay: float) -> None:
        """Lint ``uri`` after ``delay`` seconds (a newer change restarts the wait) and push its
        diagnostics; a pulling client asks when it wants them."""
        old = self._pending.pop(uri, None)
        if old is not None:
            old.cancel()
        if self.pull_mode:
            return
        loop = asyncio.get_running_loop()
        self._pending[uri] = (loop.call_later(delay, self._lint_and_publish, uri) if delay > 0
                              else loop.call_soon(self._lint_and_publish, uri))

    def _lint_and_publish(self, uri: str) -> None:
        self._pending.pop(uri, None)
        try:
            # input already waiting may replace this version: read it first, and again after the
            # lint, so that a result for a version the editor has replaced is never published
            if self.dispatch is not None:
                self.dispatch.drain()
            if uri in self._pending or not self.is_open(uri):
                return
            version = self.workspace.get_text_document(uri).version
            analysis = self.analyse_now(uri)
            if self.dispatch is not None:
                self.dispatch.drain()
            if uri in self._pending or not self.is_open(uri):
                return
            self.publish(uri, version, self.diagnostics_json(analysis))
        except Exception:  # noqa: BLE001 - the client must never see an exception
            self.report_internal_error()

    def is_open(self, uri: str) -> bool:
        return unquote(uri) in self.workspace.text_documents  # pygls keys documents by the unquoted URI

    def publish(self, uri: str, version: Optional[int], diagnostics: list[dict[str, Any]]) -> None:
        """``textDocument/publishDiagnostics`` written as plain JSON (what pygls' converter would
        write for the same values, without structuring them into lsprotocol types first)."""
        writer = self.protocol.writer
        if writer is None:
            return
        params: dict[str, Any] = {"uri": uri, "diagnostics": diagnostics}
        if version is not None:
            params["version"] = version
        writer.write(frame({"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
                                      "params": params}))

    def relint_all(self) -> None:
        """After a settings or configuration change: lint every open document again (a pulling
        client is asked to pull again)."""
        if self.pull_mode:
            self.analyses.clear()
            ws = self.client_capabilities.workspace
            if ws and ws.diagnostics and ws.diagnostics.refresh_support:
                self.workspace_diagnostic_refresh(None)
            return
        for doc in list(self.workspace.text_documents.values()):
            self.schedule(doc.uri, 0)  # the URI as the client wrote it

    def report_internal_error(self) -> None:
        text = traceback.format_exc()
        log.error("%s", text)
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error,
                                                           message=f"vllm-lint: internal error\n{text}"))
        except Exception:  # noqa: BLE001
            pass

    def show_error_once(self, message: str) -> None:
        if message in self._errors_shown:
            return
        self._errors_shown.add(message)
        self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=f"vllm-lint: {message}"))

    # -- conversions
    def positions(self, analysis: core.Analysis) -> core.Positions:
        return analysis.positions(self.encoding)

    def lsp_range(self, pos: core.Positions, start: int, end: int) -> types.Range:
        a, b = pos.position(start), pos.position(end)
        return types.Range(start=types.Position(*a), end=types.Position(*b))

    def diagnostic_json(self, pos: core.Positions, d) -> dict[str, Any]:
        return core.diagnostic_json(self.session, pos, d)

    def lsp_diagnostic(self, pos: core.Positions, d) -> types.Diagnostic:
        return self.protocol._converter.structure(self.diagnostic_json(pos, d), types.Diagnostic)

    def diagnostics_json(self, analysis: core.Analysis) -> list[dict[str, Any]]:
        if analysis.error:
            self.show_error_once(analysis.error)
            return []
        pos = self.positions(analysis)
        return [self.diagnostic_json(pos, d) for d in analysis.diagnostics]

    def lsp_diagnostics(self, analysis: core.Analysis) -> list[types.Diagnostic]:
        convert = self.protocol._converter.structure
        return [convert(d, types.Diagnostic) for d in self.diagnostics_json(analysis)]

    def current(self, uri: str) -> Optional[core.Analysis]:
        """The analysis of the document's current version (computed now if the last one is stale).
        A document the client has not opened is read from disk as ``core.read_unopened`` allows
        (pygls' own fallback would read any path, a device included, whole)."""
        doc = self.workspace.text_documents.get(unquote(uri))
        if doc is None:
            return self.session.analyse_unopened(core.uri_to_path(uri), self.workspace_roots())
        known = self.analyses.get(uri)
        if known is not None and known[0] == doc.version:
            return known[1]
        return self.analyse_now(uri)

    def workspace_roots(self) -> list[str]:
        """The workspace's folders as paths (the client's root when it names no folders)."""
        roots = [core.uri_to_path(f.uri) for f in self.workspace.folders.values()]
        if not roots and self.workspace.root_path:
            roots.append(self.workspace.root_path)
        return [r for r in roots if r]

    def text_edits(self, analysis: core.Analysis, new: bytes) -> list[types.TextEdit]:
        pos = self.positions(analysis)
        return [types.TextEdit(range=self.lsp_range(pos, start, end), new_text=text.decode("utf-8"))
                for start, end, text in core.minimal_edits(analysis.data, new)]

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        analysis = self.current(uri)
        if analysis is None or not analysis.diagnostics:
            return []
        only = params.context.only
        wants = (lambda kind: True) if not only else (
            lambda kind: any(kind == k or kind.startswith(f"{k}.") for k in only))
        pos = self.positions(analysis)
        lo = pos.offset(params.range.start.line, params.range.start.character)
        hi = pos.offset(params.range.end.line, params.range.end.character)
        unsafe = self.session.client.unsafe_fixes
        actions: list[types.CodeAction] = []
        here = [d for d in analysis.diagnostics if _touches(d, pos, lo, hi)]
        if wants(types.CodeActionKind.QuickFix):
            for d in here:
                if not d.fix_applies(unsafe):
                    continue
                new = core.fixed_bytes(analysis, d)
                if new is None:
                    continue
                actions.append(types.CodeAction(
                    title=f"{d.fix.message} ({d.code})", kind=types.CodeActionKind.QuickFix,
                    diagnostics=[self.lsp_diagnostic(pos, d)], is_preferred=d.fix.applicability == "safe",
                    edit=types.WorkspaceEdit(changes={uri: self.text_edits(analysis, new)})))
            for row in sorted({d.row for d in here}):
                codes = sorted({d.code for d in here if d.row == row})
                new = core.suppressed_bytes(analysis, row)
                if new is None:
                    continue
                actions.append(types.CodeAction(
                    title=f"Suppress {', '.join(codes)} on this line (vllm-lint)",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[self.lsp_diagnostic(pos, d) for d in here if d.row == row],
                    edit=types.WorkspaceEdit(changes={uri: self.text_edits(analysis, new)})))
        if wants(FIX_ALL_KIND) and any(d.fix_applies(unsafe) for d in analysis.diagnostics):
            new = core.fix_all(analysis)
            if new is not None:
                actions.append(types.CodeAction(
                    title="Fix all vllm-lint problems", kind=FIX_ALL_KIND,
                    edit=types.WorkspaceEdit(changes={uri: self.text_edits(analysis, new)})))
        return actions


def _touches(d, pos: core.Positions, lo: int, hi: int) -> bool:
    if d.span is not None:
        return d.span.start <= hi and lo <= d.span.end
    line = max(d.row - 1, 0)
    start = pos.starts[min(line, len(pos.starts) - 1)]
    return start <= hi and lo <= start + 1


def _safe(handler, default=None):
    """Run an LSP handler; an exception is logged to the client's output, never sent as an error."""
    def wrapper(server: VllmLintServer, params):
        try:
            return handler(server, params)
        except Exception:  # noqa: BLE001
            server.report_internal_error()
            return default
    wrapper.__name__ = handler.__name__
    return wrapper


def build_server(session: Optional[core.Session] = None, debounce: float = 0.25) -> VllmLintServer:
    server = VllmLintServer(session, debounce)

    @server.feature(types.INITIALIZE)
    @_safe
    def initialize(ls: VllmLintServer, params: types.InitializeParams) -> None:
        debounce = core.apply_initialization_options(ls.session, params.initialization_options)
        if debounce is not None:
            ls.debounce = debounce

    @server.feature(types.INITIALIZED)
    @_safe
    def initialized(ls: VllmLintServer, params) -> None:
        caps = ls.client_capabilities
        watched = caps.workspace and caps.workspace.did_change_watched_files
        if watched and watched.dynamic_registration:
            ls.client_register_capability(types.RegistrationParams(registrations=[types.Registration(
                id="vllm-lint-config", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                    types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHED]))]))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @_safe
    def did_open(ls: VllmLintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.on_open(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @_safe
    def did_change(ls: VllmLintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.on_change(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @_safe
    def did_save(ls: VllmLintServer, params: types.DidSaveTextDocumentParams) -> None:
        if _is_watched_name(params.text_document.uri):
            ls.session.files_changed()
            ls.relint_all()
        else:
            ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @_safe
    def did_close(ls: VllmLintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = ls._pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        ls.analyses.pop(uri, None)
        ls.publish(uri, None, [])

    @server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC,
                    types.DiagnosticOptions(identifier="vllm-lint", inter_file_dependencies=True,
                                            workspace_diagnostics=False))
    @_safe
    def pull_diagnostics(ls: VllmLintServer, params: types.DocumentDiagnosticParams):
        analysis = ls.current(params.text_document.uri)
        items = ls.lsp_diagnostics(analysis) if analysis is not None else []
        return types.RelatedFullDocumentDiagnosticReport(items=items)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND],
                                            resolve_provider=False))
    @_safe
    def code_action(ls: VllmLintServer, params: types.CodeActionParams):
        return ls.code_actions(params)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @_safe
    def hover(ls: VllmLintServer, params: types.HoverParams):
        analysis = ls.current(params.text_document.uri)
        if analysis is None:
            return None
        pos = ls.positions(analysis)
        found = core.hover_markdown(ls.session, analysis, pos.offset(params.position.line, params.position.character))
        if found is None:
            return None
        start, end, text = found
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
                           range=ls.lsp_range(pos, start, end))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["-"]))
    @_safe
    def completion(ls: VllmLintServer, params: types.CompletionParams):
        analysis = ls.current(params.text_document.uri)
        if analysis is None:
            return None
        pos = ls.positions(analysis)
        offset = pos.offset(params.position.line, params.position.character)
        start, items = core.completions(ls.session, analysis, offset)
        rng = ls.lsp_range(pos, start, offset)
        return types.CompletionList(is_incomplete=False, items=[
            types.CompletionItem(
                label=it["label"], kind=types.CompletionItemKind.Property, detail=it["detail"],
                documentation=it["documentation"],
                tags=[types.CompletionItemTag.Deprecated] if it["deprecated"] else None,
                text_edit=types.TextEdit(range=rng, new_text=it["insert"]))
            for it in items])

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @_safe
    def did_change_configuration(ls: VllmLintServer, params: types.DidChangeConfigurationParams) -> None:
        if params.settings is not None:
            ls.session.client = core.ClientSettings.from_json(params.settings)
        ls.relint_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @_safe
    def did_change_watched_files(ls: VllmLintServer, params: types.DidChangeWatchedFilesParams) -> None:
        ls.session.files_changed()
        ls.relint_all()

    return server
