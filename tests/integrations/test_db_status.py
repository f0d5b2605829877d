"""``vllm-lint db status``: the database's newest release and count; with --online, the newer
vLLM releases on PyPI (here a PyPI-shaped JSON served on 127.0.0.1), and a clear error offline."""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest


def test_status_offline(run_cli):
    r = run_cli("db", "status")
    assert r.exit_code == 0, r.output
    assert "3 releases, vLLM 0.8.5 to 0.27.1" in r.stdout and "--online" in r.stdout
    r = run_cli("db", "status", "--format", "json")
    doc = json.loads(r.stdout)
    assert doc["newest"] == "0.27.1" and doc["releases"] == 3 and "newer_on_pypi" not in doc


@pytest.fixture
def fake_pypi():
    releases = {
        "0.27.1": [{"upload_time_iso_8601": "2026-01-10T10:00:00.000000Z", "yanked": False}],
        "0.28.0": [{"upload_time_iso_8601": "2026-02-01T10:00:00.000000Z", "yanked": False}],
        "0.28.1rc1": [{"upload_time_iso_8601": "2026-02-05T10:00:00.000000Z"}],
        "0.29.0": [{"upload_time_iso_8601": "2026-03-01T10:00:00.000000Z", "yanked": True}],
        "0.8.5": [{"upload_time_iso_8601": "2025-04-01T10:00:00.000000Z"}],
        "not-a-version": [{}],
    }
    body = json.dumps({"info": {"name": "vllm"}, "releases": releases}).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/pypi/vllm/json"
    server.shutdown()
    server.server_close()


def test_status_online(run_cli, fake_pypi, monkeypatch):
    monkeypatch.setenv("VLLM_LINT_PYPI_URL", fake_pypi)
    r = run_cli("db", "status", "--online")
    assert r.exit_code == 1, r.output  # newer releases exist
    assert "uploaded to PyPI 2026-01-10" in r.stdout
    assert "1 newer release(s) on PyPI: 0.28.0 (2026-02-01)" in r.stdout  # no rc, no fully yanked release
    doc = json.loads(run_cli("db", "status", "--online", "--format", "json").stdout)
    assert doc["newer_on_pypi"] == [{"version": "0.28.0", "uploaded": "2026-02-01"}]


def test_status_online_unreachable(run_cli, monkeypatch):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    monkeypatch.setenv("VLLM_LINT_PYPI_URL", f"http://127.0.0.1:{port}/pypi/vllm/json")
    r = run_cli("db", "status", "--online")
    assert r.exit_code == 2
    assert r.stderr.startswith("error: cannot reach PyPI") and "without --online" in r.stderr
    assert "Traceback" not in r.output


def test_status_without_database(run_cli, tmp_path):
    r = run_cli("db", "status", "--db", str(tmp_path))
    assert r.exit_code == 2 and "no flag database index" in r.stderr
