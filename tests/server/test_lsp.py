"""The language server driven end to end by a real LSP client (pytest-lsp) over stdio: diagnostics
pushed and pulled, quick fixes, fix-all, suppression, hover, completion, settings, a broken file,
and a clean shutdown."""

from __future__ import annotations

import asyncio
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SHELL = "#!/bin/sh\nvllm serve m \\\n  --swap-space 8 \\\n  --cuda-graph-sizes 8\n"
MANIFEST = """apiVersion: apps/v1
kind: Deployment
metadata: {name: vllm}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.27.1
          args: ["--model", "m", "--max-num-partial-prefills", "2", "--guided-decoding-backend", "xgrammar"]
"""


pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]


@pytest_lsp.fixture(scope="module", loop_scope="module", config=ClientServerConfig(server_command=[sys.executable, "-m", "vllm_lint", "server",
                                                             "--debounce", "0"]))
async def client(lsp_client: LanguageClient):
    registrations = []
    lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)(lambda params: registrations.append(params))
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        initialization_options={"settings": {"documentationBaseUrl": "https://flags.example/"}}))
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, uri: str, text: str, language: str):
    """Open a document never opened before and wait for its first diagnostics."""
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))
    for _ in range(200):
        if uri in client.diagnostics:
            return client.diagnostics[uri]
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    raise AssertionError("no diagnostics")


def _uri(tmp_path, name: str) -> str:
    return (tmp_path / name).as_uri()


async def _until(client: LanguageClient, uri: str, codes_wanted, timeout: float = 30) -> list[str]:
    """The codes of ``uri``'s diagnostics once ``codes_wanted`` holds of them, or the last ones
    published when nothing new comes for ``timeout`` seconds (the test then fails, not hangs)."""
    codes = sorted(d.code for d in client.diagnostics.get(uri, []))
    for _ in range(50):
        if codes_wanted(codes):
            break
        try:
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout)
        except asyncio.TimeoutError:
            break
        codes = sorted(d.code for d in client.diagnostics.get(uri, []))
    return codes


async def test_shell_diagnostics_quick_fix_and_suppression(client: LanguageClient, tmp_path):
    uri = _uri(tmp_path, "serve.sh")
    diags = await _open(client, uri, SHELL, "shellscript")
    codes = sorted(d.code for d in diags)
    assert codes == ["VL101", "VL102"]
    vl102 = next(d for d in diags if d.code == "VL102")
    assert vl102.range.start == types.Position(line=3, character=2)
    assert vl102.severity == types.DiagnosticSeverity.Error and "[vllm " in vl102.message
    assert vl102.code_description.href == "https://flags.example/rules/VL102/index.html"

    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=vl102.range,
        context=types.CodeActionContext(diagnostics=[vl102])))
    titles = [a.title for a in actions]
    fix = next(a for a in actions if a.kind == types.CodeActionKind.QuickFix and "VL102" in a.title
               and "Suppress" not in a.title)
    assert any(t.startswith("Suppress VL102") for t in titles)
    assert any(a.kind == "source.fixAll.vllm-lint" for a in actions)
    (edit,) = fix.edit.changes[uri]
    lines = SHELL.split("\n")
    row = lines[edit.range.start.line]
    new_row = row[:edit.range.start.character] + edit.new_text + row[edit.range.end.character:]
    assert edit.range.start.line == edit.range.end.line and "--cudagraph-capture-sizes 8" in new_row
    lines[edit.range.start.line] = new_row
    fixed = "\n".join(lines)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)]))
    assert await _until(client, uri, lambda codes: codes == ["VL101"]) == ["VL101"]


async def test_fix_all_for_a_manifest(client: LanguageClient, tmp_path):
    uri = _uri(tmp_path, "deploy.yaml")
    diags = await _open(client, uri, MANIFEST, "yaml")
    assert {"VL101", "VL102"} <= {d.code for d in diags}
    assert all("[vllm 0.27.1]" in d.message for d in diags if d.code in ("VL101", "VL102"))
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
        context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"])))
    (fix_all,) = actions
    edits = fix_all.edit.changes[uri]  # one edit per changed stretch, never the text between them
    assert edits and any("structured-outputs" in e.new_text for e in edits)


async def test_pull_diagnostics_hover_and_completion(client: LanguageClient, tmp_path):
    uri = _uri(tmp_path, "serve.sh")
    await _open(client, uri, SHELL + "vllm serve m --max-model\n", "shellscript")
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    # --max-model: a prefix (VL107) of an option that needs a value (VL110)
    assert sorted(d.code for d in report.items) == ["VL101", "VL102", "VL107", "VL110"]

    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=2, character=6)))
    assert "--swap-space" in hover.contents.value and "removed in" in hover.contents.value
    assert "https://flags.example/options/swap-space/index.html" in hover.contents.value

    done = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=4, character=24)))
    labels = [i.label for i in done.items]
    assert "--max-model-len" in labels and all(label.startswith("--max-model") for label in labels)


async def test_settings_change_relints_open_documents(client: LanguageClient, tmp_path):
    uri = _uri(tmp_path, "serve.sh")
    await _open(client, uri, SHELL, "shellscript")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"vllm-lint": {"targetVersion": "0.10.2"}}))
    await _until(client, uri, lambda codes: "VL101" not in codes)
    # --swap-space and --cuda-graph-sizes were both accepted by 0.10.2
    assert [d.code for d in client.diagnostics[uri] if d.code in ("VL101", "VL102")] == []
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"vllm-lint": {}}))
    assert await _until(client, uri, lambda codes: codes == ["VL101", "VL102"]) == ["VL101", "VL102"]


async def test_a_broken_file_gives_vl001_and_the_server_keeps_serving(client: LanguageClient, tmp_path):
    bad = _uri(tmp_path, "broken.yaml")
    diags = await _open(client, bad, "image: vllm/vllm-openai:v0.27.1\nargs: [--model, m\n  - : : :\n", "yaml")
    assert [d.code for d in diags] == ["VL001"]
    good = _uri(tmp_path, "serve.sh")
    assert sorted(d.code for d in await _open(client, good, SHELL, "shellscript")) == ["VL101", "VL102"]
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=bad), position=types.Position(line=40, character=3)))
    assert hover is None
    assert not [m for m in client.log_messages if "internal error" in m.message]


async def test_superseded_versions_are_never_published(client: LanguageClient, tmp_path):
    uri = _uri(tmp_path, "serve.sh")
    await _open(client, uri, SHELL, "shellscript")
    seen = []
    for v in range(2, 12):
        text = SHELL if v % 2 else "vllm serve m --swap-space 1\n"
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=v),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    for _ in range(50):
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        seen.append(sorted(d.code for d in client.diagnostics[uri]))
        if seen[-1] == ["VL101", "VL102"]:
            break
        await asyncio.sleep(0)
    assert seen[-1] == ["VL101", "VL102"]  # version 11 is SHELL


async def test_an_edited_config_json_beside_a_script_changes_its_diagnostics(client: LanguageClient, tmp_path):
    """The model lookup the server remembers follows the local model's config.json: when the
    client reports the file changed, and by its content key when it does not."""
    import json

    cfg = tmp_path / "m" / "config.json"
    cfg.parent.mkdir()
    cfg.write_text(json.dumps({"num_attention_heads": 28, "num_key_value_heads": 4}))
    uri = _uri(tmp_path, "serve me.sh")  # quoted in the URI: published as the client wrote it
    text = "#!/bin/sh\nvllm serve ./m --tensor-parallel-size 8\n"
    assert [d.code for d in await _open(client, uri, text, "shellscript")] == ["VL401"]

    cfg.write_text(json.dumps({"num_attention_heads": 32, "num_key_value_heads": 8}))
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=cfg.as_uri(), type=types.FileChangeType.Changed)]))
    assert await _until(client, uri, lambda codes: codes == []) == []

    # no notification this time (a client that watches nothing): the next lint sees the new key
    cfg.write_text(json.dumps({"num_attention_heads": 12, "num_key_value_heads": 4}))
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text + "# edited\n")]))
    assert await _until(client, uri, lambda codes: codes == ["VL401"]) == ["VL401"]


@pytest_lsp.fixture(scope="module", loop_scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "vllm_lint", "server", "--debounce", "0"]))
async def pulling_client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(capabilities=client_capabilities("neovim")))
    yield
    await lsp_client.shutdown_session()


async def test_a_client_that_pulls_gets_no_pushed_duplicates(pulling_client: LanguageClient, tmp_path):
    uri = _uri(tmp_path, "serve.sh")
    pulling_client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="sh", version=1, text=SHELL)))
    report = await pulling_client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert sorted(d.code for d in report.items) == ["VL101", "VL102"]
    await asyncio.sleep(0.5)  # what the server would have pushed has arrived by now
    assert uri not in pulling_client.diagnostics
    pulling_client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"vllm-lint": {"targetVersion": "0.10.2"}}))
    report = await pulling_client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert [d.code for d in report.items if d.code in ("VL101", "VL102")] == []
