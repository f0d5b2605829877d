"""``vllm-lint server``: the Language Server Protocol over stdio, on pygls.

Diagnostics are pushed on open, change (debounced) and save, and pulled for clients that ask
(``textDocument/diagnostic``); code actions offer each fix, a fix-all and a suppression; hover
tells an option's history; completion offers the options of the target release. All of it runs
in-process on the buffer's text through ``vllm_lint.server.core``; a lint runs on one worker
thread, and a result computed for a version the editor has since replaced is dropped.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Optional

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .. import __version__
from . import core

log = logging.getLogger("vllm_lint.server")

FIX_ALL_KIND = "source.fixAll.vllm-lint"
SEVERITIES = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
              "info": types.DiagnosticSeverity.Information}
CONFIG_NAMES = (".vllm-lint.toml", "pyproject.toml")


class VllmLintServer(LanguageServer):
    def __init__(self, session: Optional[core.Session] = None, debounce: float = 0.25) -> None:
        super().__init__("vllm-lint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.session = session or core.Session()
        self.debounce = debounce
        self.analyses: dict[str, tuple[Optional[int], core.Analysis]] = {}
        self._pending: dict[str, asyncio.Task] = {}
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vllm-lint")
        self._errors_shown: set[str] = set()

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
    def analyse_now(self, uri: str) -> Optional[core.Analysis]:
        """Lint the document as it is now (the caller runs on the worker thread or needs the
        answer at once, as a pull request does) and remember the result for its version."""
        doc = self.workspace.get_text_document(uri)
        version, text, language = doc.version, doc.source, doc.language_id
        analysis = self.session.analyse(core.uri_to_path(uri), text, language)
        current = self.workspace.get_text_document(uri).version
        if current != version:
            return None  # superseded while linting
        self.analyses[uri] = (version, analysis)
        return analysis

    def schedule(self, uri: str, delay: float) -> None:
        old = self._pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self._pending[uri] = asyncio.ensure_future(self._lint_and_publish(uri, delay))

    async def _lint_and_publish(self, uri: str, delay: float) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            doc = self.workspace.get_text_document(uri)
            version = doc.version
            loop = asyncio.get_running_loop()
            analysis = await loop.run_in_executor(self._worker, self.analyse_now, uri)
            if analysis is None or self.workspace.get_text_document(uri).version != version:
                return
            if self._pending.get(uri) is not asyncio.current_task() or self.pull_mode:
                return  # a newer lint of this document is on its way, or the client pulls
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=uri, version=version, diagnostics=self.lsp_diagnostics(analysis)))
        except asyncio.CancelledError:
            pass
        except Exception:  # noqa: BLE001 - the client must never see an exception
            self.report_internal_error()
        finally:
            if self._pending.get(uri) is asyncio.current_task():
                del self._pending[uri]

    def relint_all(self) -> None:
        """After a settings or configuration change: lint every open document again (a pulling
        client is asked to pull again)."""
        if self.pull_mode:
            self.analyses.clear()
            ws = self.client_capabilities.workspace
            if ws and ws.diagnostics and ws.diagnostics.refresh_support:
                self.workspace_diagnostic_refresh(None)
            return
        for uri in list(self.workspace.text_documents):
            self.schedule(uri, 0)

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
        return core.Positions(analysis.data, self.encoding)

    def lsp_range(self, pos: core.Positions, start: int, end: int) -> types.Range:
        a, b = pos.position(start), pos.position(end)
        return types.Range(start=types.Position(*a), end=types.Position(*b))

    def lsp_diagnostic(self, pos: core.Positions, d) -> types.Diagnostic:
        if d.span is not None:
            rng = self.lsp_range(pos, d.span.start, d.span.end)
        else:
            line = max(d.row - 1, 0)
            start = pos.starts[min(line, len(pos.starts) - 1)]
            end = pos.data.find(b"\n", start)
            rng = self.lsp_range(pos, start, len(pos.data) if end < 0 else end)
        from ..rules.base import registry

        rule = registry().get(d.code)
        href = core.rule_url(self.session, d.code, rule.url if rule else "")
        return types.Diagnostic(
            range=rng, message=core.shown_message(d), severity=SEVERITIES.get(d.severity),
            code=d.code, code_description=types.CodeDescription(href=href) if href else None,
            source="vllm-lint", data={"fixable": core.fixable(d, self.session.client.unsafe_fixes)})

    def lsp_diagnostics(self, analysis: core.Analysis) -> list[types.Diagnostic]:
        if analysis.error:
            self.show_error_once(analysis.error)
            return []
        pos = self.positions(analysis)
        return [self.lsp_diagnostic(pos, d) for d in analysis.diagnostics]

    def current(self, uri: str) -> Optional[core.Analysis]:
        """The analysis of the document's current version (computed now if the last one is stale)."""
        doc = self.workspace.get_text_document(uri)
        known = self.analyses.get(uri)
        if known is not None and known[0] == doc.version:
            return known[1]
        return self.analyse_now(uri)

    def text_edit(self, analysis: core.Analysis, new: bytes) -> types.TextEdit:
        start, end, text = core.minimal_edit(analysis.data, new)
        return types.TextEdit(range=self.lsp_range(self.positions(analysis), start, end),
                              new_text=text.decode("utf-8"))

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
                if not core.fixable(d, unsafe):
                    continue
                new = core.fixed_bytes(analysis, d)
                if new is None:
                    continue
                actions.append(types.CodeAction(
                    title=f"{d.fix.message} ({d.code})", kind=types.CodeActionKind.QuickFix,
                    diagnostics=[self.lsp_diagnostic(pos, d)], is_preferred=d.fix.applicability == "safe",
                    edit=types.WorkspaceEdit(changes={uri: [self.text_edit(analysis, new)]})))
            for row in sorted({d.row for d in here}):
                codes = sorted({d.code for d in here if d.row == row})
                new = core.suppressed_bytes(analysis, row)
                if new is None:
                    continue
                actions.append(types.CodeAction(
                    title=f"Suppress {', '.join(codes)} on this line (vllm-lint)",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[self.lsp_diagnostic(pos, d) for d in here if d.row == row],
                    edit=types.WorkspaceEdit(changes={uri: [self.text_edit(analysis, new)]})))
        if wants(FIX_ALL_KIND) and any(core.fixable(d, unsafe) for d in analysis.diagnostics):
            new = core.fix_all(analysis)
            if new is not None:
                actions.append(types.CodeAction(
                    title="Fix all vllm-lint problems", kind=FIX_ALL_KIND,
                    edit=types.WorkspaceEdit(changes={uri: [self.text_edit(analysis, new)]})))
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
        opts = params.initialization_options
        if isinstance(opts, dict):
            ls.session.client = core.ClientSettings.from_json(opts.get("settings", opts))
            if isinstance(opts.get("debounce"), (int, float)) and opts["debounce"] >= 0:
                ls.debounce = float(opts["debounce"])

    @server.feature(types.INITIALIZED)
    @_safe
    def initialized(ls: VllmLintServer, params) -> None:
        caps = ls.client_capabilities
        watched = caps.workspace and caps.workspace.did_change_watched_files
        if watched and watched.dynamic_registration:
            ls.client_register_capability(types.RegistrationParams(registrations=[types.Registration(
                id="vllm-lint-config", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                    types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_NAMES]))]))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @_safe
    def did_open(ls: VllmLintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @_safe
    def did_change(ls: VllmLintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @_safe
    def did_save(ls: VllmLintServer, params: types.DidSaveTextDocumentParams) -> None:
        if params.text_document.uri.rsplit("/", 1)[-1] in CONFIG_NAMES:
            ls.relint_all()
        else:
            ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @_safe
    def did_close(ls: VllmLintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = ls._pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.analyses.pop(uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

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
        ls.relint_all()

    return server


def serve(db_path: Optional[str] = None, debounce: float = 0.25) -> None:
    """Serve over stdio until the client says exit."""
    logging.basicConfig(level=logging.WARNING)
    build_server(core.Session(db_path), debounce).start_io()
