"""Language server latency (issue 21): from ``didChange`` (debounce 0) to the ``publishDiagnostics``
of that version, as a ratio to an in-process lint of the same text in this process, for a 20-line
and a 1,000-line shell script and Kubernetes manifest; and the server's start-up to its first
diagnostics, as a ratio to a one-file ``vllm-lint`` run of the same file.

    python benchmarks/lsp.py [--rounds 15] [--compare DIR]

``--compare DIR``: also time the server of another version of the source tree (for instance
``git archive <commit> | tar -x -C DIR``), interleaved round by round with this one, so that
both meet the same load.

Speaks JSON-RPC over the server's stdio itself (no client library), so that what is timed is the
server. Medians; both sides measured in the same run, interleaved.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def shell_text(lines: int) -> str:
    out = ["#!/bin/sh", "set -e"]
    i = 0
    while len(out) < lines - 4:
        out.append(f"echo step {i}")
        out.append(f'export CACHE_DIR_{i}="/data/cache/{i}"')
        i += 1
    out += ["vllm serve meta-llama/Llama-3.1-8B-Instruct \\", "  --swap-space 8 \\",
            "  --cuda-graph-sizes 8 \\", "  --max-model-len 8192"]
    return "\n".join(out) + "\n"


def manifest_text(lines: int) -> str:
    head = ["apiVersion: apps/v1", "kind: Deployment", "metadata:", "  name: vllm", "spec:", "  template:",
            "    spec:", "      containers:", "        - name: vllm", "          image: vllm/vllm-openai:v0.27.1",
            '          args: ["--model", "m", "--max-num-partial-prefills", "2", "--swap-space", "4"]',
            "          env:"]
    out = list(head)
    i = 0
    while len(out) < lines:
        out += [f"            - name: APP_SETTING_{i}", f'              value: "{i}"']
        i += 1
    return "\n".join(out[:lines]) + "\n"


class Client:
    """A minimal LSP client over a server's stdio (also used by the wheel test)."""

    def __init__(self, cmd: list[str], **popen):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     **popen)
        self.next_id = 0

    def send(self, method: str, params, request: bool = False):
        msg = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            msg["id"] = self.next_id
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return msg.get("id")

    def read(self) -> dict:
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def wait(self, pred) -> dict:
        while True:
            msg = self.read()
            if msg.get("method") in ("client/registerCapability", "workspace/configuration") and "id" in msg:
                self.proc.stdin.write(_frame({"jsonrpc": "2.0", "id": msg["id"], "result": None}))
                self.proc.stdin.flush()
                continue
            if pred(msg):
                return msg

    def close(self):
        i = self.send("shutdown", None, request=True)
        self.wait(lambda m: m.get("id") == i)
        self.send("exit", None)
        self.proc.wait(timeout=10)


def sched_ns(pid: int) -> tuple[int, int]:
    """(ns on a CPU, ns waiting for one) of every thread of ``pid`` so far (Linux' schedstat;
    zeros elsewhere): what separates the server's own work from the machine's load."""
    run = wait = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0, 0
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                a, b, _ = f.read().split()
        except (OSError, ValueError):
            continue
        run, wait = run + int(a), wait + int(b)
    return run, wait


def _frame(msg) -> bytes:
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _published(uri: str, version: int):
    return lambda m: (m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
                      and m["params"].get("version") == version)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--compare", metavar="DIR", help="a source tree of another version whose server is timed too")
    opts = ap.parse_args()
    from vllm_lint.server import core

    tmp = Path(tempfile.mkdtemp(prefix="vllm-lint-lsp-"))
    cases = {"shell 20 lines": ("serve.sh", shell_text(20), "shellscript"),
             "shell 1,000 lines": ("big.sh", shell_text(1000), "shellscript"),
             "manifest 20 lines": ("deploy.yaml", manifest_text(20), "yaml"),
             "manifest 1,000 lines": ("big.yaml", manifest_text(1000), "yaml")}
    server_cmd = [sys.executable, "-m", "vllm_lint", "server", "--debounce", "0"]
    session = core.Session()

    results = {}
    cpu: dict[str, tuple[float, float, float]] = {}
    # start-up: process start to the first diagnostics of one opened file, against a one-file CLI run
    startup, cli = [], []
    name, text, lang = cases["shell 20 lines"]
    path = tmp / name
    path.write_text(text)
    env = dict(os.environ, VLLM_LINT_NO_CACHE="1")
    for _ in range(max(3, opts.rounds // 3)):
        t0 = time.perf_counter()
        c = Client(server_cmd)
        c.send("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}}, request=True)
        c.wait(lambda m: m.get("id") == 1)
        c.send("initialized", {})
        uri = path.as_uri()
        c.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": text}})
        c.wait(_published(uri, 1))
        startup.append(time.perf_counter() - t0)
        c.close()
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "vllm_lint", str(path)], stdout=subprocess.DEVNULL, env=env)
        cli.append(time.perf_counter() - t0)
    results["start-up to first diagnostics"] = (statistics.median(startup), statistics.median(cli), "one-file CLI run")

    other = None
    if opts.compare:
        root = Path(opts.compare).resolve()
        other = Client(server_cmd, cwd=tempfile.gettempdir(), env=dict(
            os.environ, PYTHONPATH=str(root), VLLM_LINT_DB=str(root / "flag_db")))
    c = Client(server_cmd)
    for client in filter(None, (c, other)):
        client.send("initialize", {"processId": os.getpid(), "rootUri": None,
                                   "capabilities": {"general": {"positionEncodings": ["utf-16"]}}}, request=True)
        client.wait(lambda m: m.get("id") == 1)
        client.send("initialized", {})
    compared = {}
    for label, (name, text, lang) in cases.items():
        path = tmp / name
        uri = path.as_uri()
        for client in filter(None, (c, other)):
            client.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": lang, "version": 1,
                                                                  "text": text}})
            client.wait(_published(uri, 1))
        server, local, server_cpu, server_wait, local_cpu, others = [], [], [], [], [], []
        for r in range(opts.rounds):
            version = r + 2
            edited = text + f"# round {r}\n"
            change = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": edited}]}
            s0 = sched_ns(c.proc.pid)
            t0 = time.perf_counter()
            c.send("textDocument/didChange", change)
            c.wait(_published(uri, version))
            server.append(time.perf_counter() - t0)
            s1 = sched_ns(c.proc.pid)
            server_cpu.append((s1[0] - s0[0]) / 1e9)
            server_wait.append((s1[1] - s0[1]) / 1e9)
            t0, c0 = time.perf_counter(), time.thread_time()
            session.analyse(str(path), edited, lang)
            local.append(time.perf_counter() - t0)
            local_cpu.append(time.thread_time() - c0)
            if other is not None:
                t0 = time.perf_counter()
                other.send("textDocument/didChange", change)
                other.wait(_published(uri, version))
                others.append(time.perf_counter() - t0)
        results[label] = (statistics.median(server), statistics.median(local), "in-process lint")
        cpu[label] = (statistics.median(server_cpu), statistics.median(server_wait), statistics.median(local_cpu))
        if others:
            compared[label] = statistics.median(others)
    c.close()
    if other is not None:
        other.close()

    print(f"load average {os.getloadavg()[0]:.1f} (1 min)" if hasattr(os, "getloadavg") else "")
    print(f"{'case':32} {'server ms':>10} {'baseline ms':>12} {'ratio':>7}  baseline")
    for label, (a, b, base) in results.items():
        print(f"{label:32} {a * 1000:10.1f} {b * 1000:12.1f} {a / b:7.2f}  {base}")
    if any(v[0] for v in cpu.values()):
        print("\nwhere a change's time goes (medians): the server's CPU time and its wait for a CPU, "
              "against the in-process lint's CPU time")
        print(f"{'case':32} {'server cpu':>10} {'cpu wait':>9} {'baseline cpu':>13} {'cpu ratio':>10}")
        for label, (run, wait, base) in cpu.items():
            print(f"{label:32} {run * 1000:10.1f} {wait * 1000:9.1f} {base * 1000:13.1f} {run / base:10.2f}")
    if compared:
        print(f"\nthe server of {opts.compare}, in the same rounds")
        print(f"{'case':32} {'other ms':>10} {'ratio':>7} {'this ms':>10} {'ratio':>7}")
        for label, t in compared.items():
            a, b, _ = results[label]
            print(f"{label:32} {t * 1000:10.1f} {t / b:7.2f} {a * 1000:10.1f} {a / b:7.2f}")


if __name__ == "__main__":
    main()
