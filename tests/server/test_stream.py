"""The language server's stdio taken apart: the real server as a subprocess, fed raw bytes. Each
probe is one way a client (or a broken pipe between it and the server) can go wrong; each ends
with a valid request that must be answered, read with a bound (``lsp_stdio.ANSWER_WAIT``), so a
server that stops answering fails the test instead of hanging it.

The bar (issue 34): framing errors resynchronise on the next valid header; a body that is not
JSON or not UTF-8 gets a parse error (-32700), params that do not fit an invalid-params error
(-32602), each with the request's id where it can be read, null otherwise; no request makes the
server read a device, a FIFO, more than the input limit, or through a symbolic link out of the
workspace; nothing the server sends back carries a plaintext secret (VL501) of the document."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys

import pytest
from lsp_stdio import StdioServer, frame, notify, request

SHELL = "#!/bin/sh\nvllm serve m \\\n  --swap-space 8 \\\n  --cuda-graph-sizes 8\n"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    return tmp_path_factory.mktemp("workspace")


@pytest.fixture(scope="module")
def server(workspace):
    """One server for the probes (each ends with the stream in step, and uses ids of its own),
    its workspace folder ``workspace``."""
    s = StdioServer(str(workspace), str(workspace.parent / "server.stderr"))
    s.initialize(folders=[workspace.as_uri()])
    yield s
    assert s.close() == 0


@pytest.fixture
def own_server(tmp_path):
    """A server of the test's own, not initialized (for what changes its state for good)."""
    s = StdioServer(str(tmp_path), str(tmp_path / "server.stderr"))
    yield s
    assert s.close() == 0


_ids = itertools.count(1000)


def _id() -> int:
    return next(_ids)


def _hover(rid, uri: str, line=0, character=0) -> bytes:
    return request(rid, "textDocument/hover", {"textDocument": {"uri": uri},
                                               "position": {"line": line, "character": character}})


def _error(answer: dict) -> tuple:
    return answer["id"], answer["error"]["code"]


def _unknown(server) -> None:
    """A request for a method the server does not have: answered (method not found), so the
    stream is in step."""
    rid = _id()
    server.send(request(rid, "vllm-lint/unknown"))
    assert _error(server.answer(rid)) == (rid, -32601)


def test_a_non_numeric_content_length_loses_that_frame_only(server):
    lost, after = _id(), _id()
    body = json.dumps({"jsonrpc": "2.0", "id": lost, "method": "shutdown"}).encode()
    server.send(b"Content-Length: abc\r\n\r\n" + body)
    server.send(request(after, "vllm-lint/unknown"))
    assert _error(server.answer(after)) == (after, -32601)
    _unknown(server)
    assert lost not in server.answers


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
    server.send(garbage)
    _unknown(server)


def test_a_body_that_is_not_json_gets_a_parse_error(server):
    server.answers.pop(None, None)  # an earlier probe's answer without an id
    server.send(b"Content-Length: 5\r\n\r\n{abc}")
    assert _error(server.answer(None)) == (None, -32700)
    # the id is read where the body says it before it breaks
    rid = _id()
    broken = b'{"jsonrpc": "2.0", "id": %d, "method": "textDocument/hover", "params": {' % rid
    server.send(b"Content-Length: %d\r\n\r\n" % len(broken) + broken)
    assert _error(server.answer(rid)) == (rid, -32700)
    _unknown(server)


def test_a_body_that_is_not_utf8_gets_a_parse_error_with_its_id(server):
    rid = _id()
    body = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "shutdown", "params": None,
                       "note": "@@"}).encode().replace(b"@@", b"\xff\xfe")
    server.send(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert _error(server.answer(rid)) == (rid, -32700)
    _unknown(server)


@pytest.mark.parametrize("params", [
    5,
    [1, 2],
    {"textDocument": {"uri": "file:///x.sh"}, "position": {"line": -1, "character": -5}},
    {"textDocument": {"uri": "file:///x.sh"}, "position": {"line": 10 ** 30, "character": 2 ** 40}},
    {"position": {"line": 0, "character": 0}},
])
def test_invalid_params_get_an_invalid_params_error(server, params):
    rid = _id()
    server.send(request(rid, "textDocument/hover", params))
    assert _error(server.answer(rid)) == (rid, -32602)
    _unknown(server)


@pytest.mark.parametrize("message, with_id", [
    ([{"jsonrpc": "2.0", "id": 31, "method": "shutdown"}], False),  # a batch: not in LSP
    (5, False),
    ({"jsonrpc": "1.0", "method": "shutdown"}, True),
    ({"jsonrpc": "2.0", "method": 7}, True),
    ({"jsonrpc": "2.0", "id": {"n": 1}, "method": "shutdown"}, False),
])
def test_a_message_that_is_not_a_request_gets_an_invalid_request_error(server, message, with_id):
    server.answers.pop(None, None)  # an earlier probe's answer without an id
    rid = _id() if with_id else None
    if with_id:
        message = {**message, "id": rid}
    server.send(frame(message))
    assert _error(server.answer(rid)) == (rid, -32600)
    _unknown(server)


def test_invalid_params_before_pygls_is_loaded_are_answered(own_server):
    """The start-up phase (``transport.Startup``) passes what it does not take to pygls."""
    own_server.send(request(1, "initialize", {"processId": None, "capabilities": 5}))
    assert _error(own_server.answer(1)) == (1, -32602)
    assert "result" in own_server.initialize()


def test_requests_after_shutdown_get_an_error(own_server):
    own_server.initialize()
    own_server.send(request(41, "shutdown"))
    assert own_server.answer(41)["result"] is None
    own_server.send(_hover(42, "file:///x.sh"))
    assert _error(own_server.answer(42)) == (42, -32600)
    own_server.send(notify("exit", None))
    own_server.proc.stdin.close()
    assert own_server.proc.wait(timeout=60) == 0


# --------------------------------------------------------------------- documents never opened


def _pull(server, uri: str) -> dict:
    rid = _id()
    server.send(request(rid, "textDocument/diagnostic", {"textDocument": {"uri": uri}}))
    return server.answer(rid)


def test_an_unopened_device_is_never_read(server):
    assert _pull(server, "file:///dev/urandom")["result"]["items"] == []
    rid = _id()
    server.send(_hover(rid, "file:///dev/zero"))
    assert server.answer(rid)["result"] is None
    rid = _id()
    server.send(request(rid, "textDocument/completion", {"textDocument": {"uri": "file:///dev/urandom"},
                                                         "position": {"line": 0, "character": 2}}))
    assert "result" in server.answer(rid)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_an_unopened_fifo_is_never_opened(server, workspace):
    """Opening a FIFO for reading waits for a writer: the server would stop answering."""
    fifo = workspace / "fifo.sh"
    os.mkfifo(fifo)
    assert _pull(server, fifo.as_uri())["result"]["items"] == []


def test_an_unopened_file_is_read_within_the_input_limit(server, workspace):
    script = workspace / "unopened.sh"
    script.write_text(SHELL)
    big = workspace / "big.sh"
    with open(big, "wb") as f:  # sparse: 11 MiB on the file system, no disk used
        f.truncate(11 * 1024 * 1024)
    assert sorted(d["code"] for d in _pull(server, script.as_uri())["result"]["items"]) == ["VL101", "VL102"]
    (too_large,) = _pull(server, big.as_uri())["result"]["items"]
    assert too_large["code"] == "VL001" and "too large" in too_large["message"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_symlink_out_of_the_workspace_is_not_followed(server, workspace):
    outside = workspace.parent / "elsewhere"
    outside.mkdir()
    (outside / "serve.sh").write_text(SHELL)
    (workspace / "real.sh").write_text(SHELL)
    (workspace / "out.sh").symlink_to(outside / "serve.sh")
    (workspace / "in.sh").symlink_to(workspace / "real.sh")
    assert _pull(server, (workspace / "out.sh").as_uri())["result"]["items"] == []
    assert len(_pull(server, (workspace / "in.sh").as_uri())["result"]["items"]) == 2
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


def test_a_plaintext_secret_is_never_sent_back(server, workspace):
    """VL501 says that a secret is written in the file, never what it is: not in a diagnostic,
    a hover, a code action's title, or an edit (the fix-all edit spans only what it changes)."""
    for name, (language, text) in SECRET_DOCUMENTS.items():
        uri = (workspace / f"secret-{name}").as_uri()
        server.send(notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language, "version": 1, "text": text}}))
        published = server.notification("textDocument/publishDiagnostics", uri)
        codes = [d["code"] for d in published["params"]["diagnostics"]]
        assert codes.count("VL501") >= 2 and "VL102" in codes
        answers = [published, _pull(server, uri)]
        lines = text.split("\n")
        for line, row in enumerate(lines):  # a hover on every character
            for character in range(len(row) + 1):
                rid = _id()
                server.send(_hover(rid, uri, line, character))
                answers.append(server.answer(rid))
        rid = _id()
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


def test_a_regular_file_as_stdin_is_read_the_same_way(tmp_path):
    """Where the event loop cannot watch stdin (a regular file here; Windows' pipes), a thread
    reads it: the same framing, resynchronised after garbage, every request answered, and the
    end of the input ends the server."""
    script = tmp_path / "serve.sh"
    script.write_text(SHELL)
    stdin = tmp_path / "session.bin"
    stdin.write_bytes(
        request(1, "initialize", {"processId": None, "capabilities": {}}) + notify("initialized", {})
        + b"Content-Length: abc\r\n\r\n{}" + request(2, "vllm-lint/unknown")
        + b"Content-Length: 5\r\n\r\n{abc}" + request(3, "textDocument/hover", 5)
        + request(4, "textDocument/diagnostic", {"textDocument": {"uri": script.as_uri()}})
        + request(5, "shutdown") + notify("exit", None))
    with open(stdin, "rb") as f:
        out = subprocess.run([sys.executable, "-m", "vllm_lint", "server"], stdin=f, capture_output=True,
                             timeout=120, cwd=tmp_path, env=dict(os.environ, VLLM_LINT_NO_CACHE="1")).stdout
    answers = {}
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        n = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        msg, out = json.loads(rest[:n]), rest[n:]
        if "method" not in msg:
            answers[msg["id"]] = msg
    assert answers[1]["result"]["serverInfo"]["name"] == "vllm-lint"
    assert answers[2]["error"]["code"] == -32601 and answers[None]["error"]["code"] == -32700
    assert answers[3]["error"]["code"] == -32602
    assert sorted(d["code"] for d in answers[4]["result"]["items"]) == ["VL101", "VL102"]
    assert answers[5]["result"] is None
