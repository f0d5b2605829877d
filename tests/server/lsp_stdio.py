"""The real ``vllm-lint server`` as a subprocess, driven with raw bytes on its stdin, its answers
read back from stdout. Every read is bounded (``ANSWER_WAIT``): a request the server leaves
unanswered fails the test instead of hanging it. The bound is generous (a loaded machine may be
slow); no test asserts how fast an answer came."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
from typing import Any, Optional

ANSWER_WAIT = 60.0  # seconds before a request counts as unanswered

_LENGTH = re.compile(rb"Content-Length: (\d+)\r\n")


def frame(message: Any) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(rid, method: str, params: Any = None) -> bytes:
    msg = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        msg["params"] = params
    return frame(msg)


def notify(method: str, params: Any) -> bytes:
    return frame({"jsonrpc": "2.0", "method": method, "params": params})


class StdioServer:
    def __init__(self, cwd: str, stderr_path: str, debounce: str = "0") -> None:
        env = dict(os.environ, VLLM_LINT_NO_CACHE="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "vllm_lint", "server", "--debounce", debounce],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=open(stderr_path, "wb"), cwd=cwd, env=env)
        self.messages: "queue.Queue[Optional[dict]]" = queue.Queue()
        self.answers: dict[Any, dict] = {}
        self.seen: list[dict] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        """The server's own framing is trusted: a header, then exactly that many bytes."""
        out = self.proc.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                c = out.read(1)
                if not c:
                    self.messages.put(None)
                    return
                header += c
            n = int(_LENGTH.search(header).group(1))
            self.messages.put(json.loads(out.read(n)))

    def send(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def answer(self, rid) -> dict:
        """The response to request ``rid`` (other messages are kept in ``seen``)."""
        while rid not in self.answers:
            try:
                msg = self.messages.get(timeout=ANSWER_WAIT)
            except queue.Empty:
                raise AssertionError(f"request {rid!r} unanswered") from None
            if msg is None:
                raise AssertionError(f"the server closed its output before answering {rid!r}")
            self.seen.append(msg)
            if "method" not in msg and "id" in msg:
                self.answers[msg["id"]] = msg
        return self.answers.pop(rid)

    def notification(self, method: str, uri: Optional[str] = None) -> dict:
        """The first ``method`` notification (for ``uri``) not looked at yet."""
        while True:
            for msg in self.seen:
                if msg.get("method") == method and (uri is None or msg["params"].get("uri") == uri):
                    self.seen.remove(msg)
                    return msg
            try:
                msg = self.messages.get(timeout=ANSWER_WAIT)
            except queue.Empty:
                raise AssertionError(f"no {method} for {uri}") from None
            if msg is None:
                raise AssertionError(f"the server closed its output before sending {method}")
            if "method" not in msg and "id" in msg:
                self.answers[msg["id"]] = msg
            else:
                self.seen.append(msg)

    def initialize(self, root_uri: Optional[str] = None, folders: Optional[list[str]] = None) -> dict:
        params: dict[str, Any] = {"processId": None, "capabilities": {}, "rootUri": root_uri}
        if folders is not None:
            params["workspaceFolders"] = [{"uri": u, "name": u.rsplit("/", 1)[-1]} for u in folders]
        self.send(request("init", "initialize", params))
        got = self.answer("init")
        self.send(notify("initialized", {}))
        return got

    def close(self) -> int:
        if self.proc.poll() is None:
            try:
                self.send(request("bye", "shutdown"))
                self.answer("bye")
                self.send(notify("exit", None))
                self.proc.stdin.close()
                return self.proc.wait(timeout=ANSWER_WAIT)
            except (AssertionError, OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode
