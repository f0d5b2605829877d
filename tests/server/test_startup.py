"""The server's start-up phase (``transport.Startup``): ``initialize`` answered with the
capabilities pygls would compute, the first opened document linted and published before pygls
and lsprotocol are imported, and pygls shown what it missed once it loads."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from vllm_lint import __version__
from vllm_lint.server import core, transport, wire

SHELL = "#!/bin/sh\nvllm serve m \\\n  --swap-space 8 \\\n  --cuda-graph-sizes 8\n"


def _body(message: dict) -> bytes:
    return wire.frame(message).split(b"\r\n\r\n", 1)[1]


def _messages(frames: list[bytes]) -> list[dict]:
    return [json.loads(f.split(b"\r\n\r\n", 1)[1]) for f in frames]


class _Collect:
    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.frames.append(data)


@pytest.mark.parametrize("client", ["visual-studio-code", "neovim", None])
def test_the_capabilities_written_out_are_those_pygls_computes(client):
    from lsprotocol import types
    from pytest_lsp import client_capabilities

    from vllm_lint.server.protocol import build_server

    server = build_server()
    out = _Collect()
    server.protocol.set_writer(out)
    caps = server.protocol._converter.unstructure(client_capabilities(client) if client else types.ClientCapabilities())
    server.protocol.handle_message(server.protocol.structure_message(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "capabilities": caps}}))
    (answer,) = _messages(out.frames)
    computed = answer["result"]["capabilities"]
    sync = computed["textDocumentSync"]
    for key in ("willSave", "willSaveWaitUntil"):  # false: the same as absent
        assert sync.pop(key, False) is False
    assert computed == {"positionEncoding": transport.position_encoding(caps), **transport.CAPABILITIES}
    assert answer["result"]["serverInfo"] == {"name": "vllm-lint", "version": __version__}


def test_the_first_diagnostics_are_out_before_pygls_is_imported(tmp_path):
    """In a fresh interpreter: initialize and the first didOpen are answered without importing
    pygls, lsprotocol or cattrs."""
    uri = (tmp_path / "serve.sh").as_uri()
    code = f"""
import json, sys
from vllm_lint.server import core, transport
frames = []
class W:
    def write(self, data): frames.append(data)
st = transport.Startup(core.Session(), 0.0, W(), lambda: None)
d = transport.FastDispatch(None, -1, st)
def send(m): d.receive(json.dumps(m).encode())
send({{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {{"processId": None, "capabilities": {{}}}}}})
send({{"jsonrpc": "2.0", "method": "initialized", "params": {{}}}})
send({{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {{"textDocument": {{
    "uri": {uri!r}, "languageId": "shellscript", "version": 1, "text": {SHELL!r}}}}}}})
print(json.dumps({{"frames": len(frames), "loaded": [m for m in ("pygls", "lsprotocol", "cattrs") if m in sys.modules],
                  "codes": sorted(x["code"] for x in json.loads(frames[-1].split(b"\\r\\n\\r\\n", 1)[1])["params"]["diagnostics"])}}))
"""
    env = dict(os.environ, VLLM_LINT_NO_CACHE="1")
    got = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                    env=env).stdout)
    assert got == {"frames": 2, "loaded": [], "codes": ["VL101", "VL102"]}


def test_pygls_loaded_later_is_shown_what_it_missed(tmp_path):
    out = _Collect()
    loads = []
    st = transport.Startup(core.Session(), 0.0, out, lambda: loads.append(1))
    d = transport.FastDispatch(None, -1, st)
    uri = (tmp_path / "serve.sh").as_uri()
    d.receive(_body({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": None, "capabilities": {"general": {"positionEncodings": ["utf-32", "utf-16"]}},
        "initializationOptions": {"settings": {"documentationBaseUrl": "https://flags.example/"}}}}))
    d.receive(_body({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    d.receive(_body({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "shellscript", "version": 1, "text": SHELL}}}))
    assert loads == [1] and d.server is None
    # a request the start-up phase does not answer loads pygls first
    d.receive(_body({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": uri}, "position": {"line": 2, "character": 6}}}))
    init, published, hover = _messages(out.frames)  # pygls' own answer to initialize was not sent
    assert init["id"] == 1 and init["result"]["capabilities"]["positionEncoding"] == "utf-32"
    diags = published["params"]["diagnostics"]
    assert sorted(x["code"] for x in diags) == ["VL101", "VL102"]
    assert {x["codeDescription"]["href"] for x in diags} == {"https://flags.example/rules/VL101/index.html",
                                                             "https://flags.example/rules/VL102/index.html"}
    assert hover["id"] == 2 and "--swap-space" in hover["result"]["contents"]["value"]
    server = d.server
    assert server.encoding == "utf-32" and server.workspace.get_text_document(uri).version == 1
    assert server.analyses[uri][0] == 1
