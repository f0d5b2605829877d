"""The language server's stdio taken apart: the real server as a subprocess, fed raw bytes. Each
probe is one way a client (or a broken pipe between it and the server) can go wrong; each ends
with a valid request that must be answered, read with a bound (``lsp_stdio.ANSWER_WAIT``), so a
server that stops answering fails the test instead of hanging it.

The bar (issue 34): framing errors resynchronise on the next valid header; a body that is not
JSON or not UTF-8 gets a parse error (-32700), params that do not fit an invalid-params error
(-32602), each with the request's id where it can be read, null otherwise; no request makes the
server read a device, a FIFO, more than the input limit, or through a symbolic link out of the
workspace."""

from __future__ import annotations

import json
import os

import pytest
from lsp_stdio import StdioServer, frame, notify, request

SHELL = "#!/bin/sh\nvllm serve m \\\n  --swap-space 8 \\\n  --cuda-graph-sizes 8\n"


@pytest.fixture
def server(tmp_path):
    s = StdioServer(str(tmp_path), str(tmp_path / "server.stderr"))
    yield s
    assert s.close() == 0


def _hover(rid, uri: str, line=0, character=0) -> bytes:
    return request(rid, "textDocument/hover", {"textDocument": {"uri": uri},
                                               "position": {"line": line, "character": character}})


def _error(answer: dict) -> tuple:
    return answer["id"], answer["error"]["code"]


def test_a_non_numeric_content_length_loses_that_frame_only(server, tmp_path):
    server.initialize()
    lost = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "shutdown"}).encode()
    server.send(b"Content-Length: abc\r\n\r\n" + lost)
    server.send(request(2, "vllm-lint/unknown"))
    server.send(request(3, "vllm-lint/unknown"))
    assert _error(server.answer(2)) == (2, -32601)  # method not found: answered, the stream in step
    assert _error(server.answer(3)) == (3, -32601)
    assert 1 not in server.answers


@pytest.mark.parametrize("garbage", [
    b"\r\n\r\n",  # an empty header block
    b"garbage without any line break",  # glued to the next header
    b"Content-Type: text/plain\r\n\r\n{}",  # a header block without a length
    b"Content-Length: 5\r\nContent-Length: 7\r\n\r\n",  # two lengths
    b"Content-Length: 9\r\nX",  # a fragment that would take the next header into its own
    b"Content-Length: 10\r\n\r\n",  # a length that cuts into the next frame
    b"Content-Length: 100000\r\n\r\n{\"jsonrpc\"",  # a length far past what is sent
    b"Content-Length: 99999999999999\r\n\r\n",  # a length over the limit
    b"\xff\xfe\x00\x01" * 300,  # binary
])
def test_garbage_before_a_request_does_not_lose_it(server, garbage):
    server.initialize()
    server.send(garbage)
    server.send(request(7, "vllm-lint/unknown"))
    assert _error(server.answer(7)) == (7, -32601)


def test_a_body_that_is_not_json_gets_a_parse_error(server):
    server.initialize()
    server.send(b"Content-Length: 5\r\n\r\n{abc}")
    assert _error(server.answer(None)) == (None, -32700)
    # the id is read where the body says it before it breaks
    broken = b'{"jsonrpc": "2.0", "id": 11, "method": "textDocument/hover", "params": {'
    server.send(b"Content-Length: %d\r\n\r\n" % len(broken) + broken)
    assert _error(server.answer(11)) == (11, -32700)


def test_a_body_that_is_not_utf8_gets_a_parse_error_with_its_id(server):
    server.initialize()
    body = json.dumps({"jsonrpc": "2.0", "id": 12, "method": "shutdown", "params": None,
                       "note": "@@"}).encode().replace(b"@@", b"\xff\xfe")
    server.send(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert _error(server.answer(12)) == (12, -32700)
    server.send(request(13, "vllm-lint/unknown"))
    assert _error(server.answer(13)) == (13, -32601)


@pytest.mark.parametrize("params", [
    5,
    [1, 2],
    {"textDocument": {"uri": "file:///x.sh"}, "position": {"line": -1, "character": -5}},
    {"textDocument": {"uri": "file:///x.sh"}, "position": {"line": 10 ** 30, "character": 2 ** 40}},
    {"position": {"line": 0, "character": 0}},
])
def test_invalid_params_get_an_invalid_params_error(server, params):
    server.initialize()
    server.send(request(21, "textDocument/hover", params))
    assert _error(server.answer(21)) == (21, -32602)
    server.send(request(22, "vllm-lint/unknown"))
    assert _error(server.answer(22)) == (22, -32601)


@pytest.mark.parametrize("message, rid", [
    ([{"jsonrpc": "2.0", "id": 31, "method": "shutdown"}], None),  # a batch: not in LSP
    (5, None),
    ({"jsonrpc": "1.0", "id": 32, "method": "shutdown"}, 32),
    ({"jsonrpc": "2.0", "id": 33, "method": 7}, 33),
    ({"jsonrpc": "2.0", "id": {"n": 1}, "method": "shutdown"}, None),
])
def test_a_message_that_is_not_a_request_gets_an_invalid_request_error(server, message, rid):
    server.initialize()
    server.send(frame(message))
    assert _error(server.answer(rid)) == (rid, -32600)


def test_invalid_params_before_pygls_is_loaded_are_answered(server, tmp_path):
    """The start-up phase (``transport.Startup``) passes what it does not take to pygls."""
    server.send(request(1, "initialize", {"processId": None, "capabilities": 5}))
    assert _error(server.answer(1)) == (1, -32602)
    assert "result" in server.initialize()


def test_requests_after_shutdown_get_an_error(server):
    server.initialize()
    server.send(request(41, "shutdown"))
    assert server.answer(41)["result"] is None
    server.send(_hover(42, "file:///x.sh"))
    assert _error(server.answer(42)) == (42, -32600)
    server.send(notify("exit", None))
    server.proc.stdin.close()
    assert server.proc.wait(timeout=60) == 0


# --------------------------------------------------------------------- documents never opened


def _pull(server, rid, uri: str) -> dict:
    server.send(request(rid, "textDocument/diagnostic", {"textDocument": {"uri": uri}}))
    return server.answer(rid)


def test_an_unopened_device_is_never_read(server):
    server.initialize()
    assert _pull(server, 1, "file:///dev/urandom")["result"]["items"] == []
    server.send(_hover(2, "file:///dev/zero"))
    assert server.answer(2)["result"] is None
    server.send(request(3, "textDocument/completion", {"textDocument": {"uri": "file:///dev/urandom"},
                                                       "position": {"line": 0, "character": 2}}))
    assert "result" in server.answer(3)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_an_unopened_fifo_is_never_opened(server, tmp_path):
    """Opening a FIFO for reading waits for a writer: the server would stop answering."""
    fifo = tmp_path / "serve.sh"
    os.mkfifo(fifo)
    server.initialize(folders=[tmp_path.as_uri()])
    assert _pull(server, 1, fifo.as_uri())["result"]["items"] == []


def test_an_unopened_file_is_read_within_the_input_limit(server, tmp_path):
    script = tmp_path / "serve.sh"
    script.write_text(SHELL)
    big = tmp_path / "big.sh"
    with open(big, "wb") as f:  # sparse: 11 MiB on the file system, no disk used
        f.truncate(11 * 1024 * 1024)
    server.initialize(folders=[tmp_path.as_uri()])
    assert sorted(d["code"] for d in _pull(server, 1, script.as_uri())["result"]["items"]) == ["VL101", "VL102"]
    (too_large,) = _pull(server, 2, big.as_uri())["result"]["items"]
    assert too_large["code"] == "VL001" and "too large" in too_large["message"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_symlink_out_of_the_workspace_is_not_followed(server, tmp_path):
    workspace, outside = tmp_path / "ws", tmp_path / "elsewhere"
    workspace.mkdir()
    outside.mkdir()
    (outside / "serve.sh").write_text(SHELL)
    (workspace / "real.sh").write_text(SHELL)
    (workspace / "out.sh").symlink_to(outside / "serve.sh")
    (workspace / "in.sh").symlink_to(workspace / "real.sh")
    server.initialize(folders=[workspace.as_uri()])
    assert _pull(server, 1, (workspace / "out.sh").as_uri())["result"]["items"] == []
    assert len(_pull(server, 2, (workspace / "in.sh").as_uri())["result"]["items"]) == 2
    # opened, the editor's buffer is what is linted, wherever the link points
    uri = (workspace / "out.sh").as_uri()
    server.send(notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "shellscript", "version": 1, "text": SHELL}}))
    assert len(server.notification("textDocument/publishDiagnostics", uri)["params"]["diagnostics"]) == 2


# --------------------------------------------------------------------- secrets (VL501)

SECRET_KEY, SECRET_TOKEN = "sk-prod-3f9a8b7c6d5e", "hf_AbCdEfGhIjKlMnOpQrStUv"
SECRET_DOCUMENTS = {
    "serve.sh": ("shellscript", f"#!/bin/sh\nexport HF_TOKEN={SECRET_TOKEN}\nvllm serve m --cuda-graph-sizes 8 "
                                f"--api-key={SECRET_KEY} \\\n  --swap-space 4 --cuda-graph-sizes 8 --api-key {SECRET_KEY}\n"),
    "deploy.yaml": ("yaml", f"""apiVersion: v1
kind: Pod
metadata: {{name: p}}
spec:
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.27.1
    args: ["m", "--cuda-graph-sizes", "8", "--api-key", "{SECRET_KEY}", "--swap-space", "4"]
    env:
    - name: HF_TOKEN
      value: {SECRET_TOKEN}
    - name: VLLM_API_KEY
      value: "{SECRET_KEY}"
"""),
}


def test_a_plaintext_secret_is_never_sent_back(server, tmp_path):
    """VL501 says that a secret is written in the file, never what it is: not in a diagnostic,
    a hover, a code action's title, or an edit (the fix-all edit spans only what it changes)."""
    server.initialize(folders=[tmp_path.as_uri()])
    rid = 100
    for name, (language, text) in SECRET_DOCUMENTS.items():
        uri = (tmp_path / name).as_uri()
        server.send(notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language, "version": 1, "text": text}}))
        published = server.notification("textDocument/publishDiagnostics", uri)
        codes = [d["code"] for d in published["params"]["diagnostics"]]
        assert codes.count("VL501") >= 2 and "VL102" in codes
        answers = [published, _pull(server, rid, uri)]
        lines = text.split("\n")
        for line, row in enumerate(lines):  # a hover on every character
            for character in range(len(row) + 1):
                rid += 1
                server.send(_hover(rid, uri, line, character))
                answers.append(server.answer(rid))
        rid += 1
        server.send(request(rid, "textDocument/codeAction", {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": len(lines), "character": 0}},
            "context": {"diagnostics": published["params"]["diagnostics"]}}))
        actions = server.answer(rid)
        assert any(a["kind"] == "source.fixAll.vllm-lint" for a in actions["result"])
        assert any(a["title"].startswith("Suppress VL501") for a in actions["result"])
        answers.append(actions)
        for secret in (SECRET_KEY, SECRET_TOKEN):
            assert secret in text
            sent = [json.dumps(a) for a in answers + server.seen]
            assert [m[max(0, m.index(secret) - 300):m.index(secret) + 40] for m in sent if secret in m] == []
