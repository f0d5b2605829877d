"""A package index on 127.0.0.1 for offline tests of `vllm-lint db` and the release train: it
serves PyPI's JSON API for vllm (``/pypi/vllm/json``) and the files it lists, each a small
synthetic sdist built from a fixture source tree of tests/scrape/fixtures. Nothing leaves the
machine; ``requests`` is counted so a test can say which commands reached the index."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Optional

FIXTURES = Path(__file__).resolve().parent / "scrape" / "fixtures"


def synthetic_sdist(version: str, fixture: str = "era_0_33", edits: Optional[dict[str, tuple[str, str]]] = None) -> bytes:
    """``vllm-<version>.tar.gz`` holding the fixture's source tree under ``vllm-<version>/``;
    ``edits`` replace text in files (``{path: (old, new)}``), as the extractor tests do."""
    root = FIXTURES / fixture
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            rel = path.relative_to(root).as_posix()
            data = path.read_bytes()
            if edits and rel in edits:
                old, new = edits[rel]
                assert old.encode() in data, (rel, old)
                data = data.replace(old.encode(), new.encode())
            info = tarfile.TarInfo(f"vllm-{version}/{rel}")
            info.size = len(data)
            info.mtime = 0
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


class LocalIndex:
    """``with LocalIndex({"0.35.0": sdist_bytes}) as index:`` serves them; ``index.url`` is the
    JSON API URL to pass as ``--index-url``; ``index.requests`` lists the paths asked for."""

    def __init__(self, releases: dict[str, bytes], declared_sizes: Optional[dict[str, int]] = None):
        self.files = {f"vllm-{v}.tar.gz": data for v, data in releases.items()}
        self.declared = declared_sizes or {}
        self.requests: list[str] = []
        self._server: Optional[ThreadingHTTPServer] = None

    def index_json(self) -> bytes:
        releases = {}
        for name, data in self.files.items():
            version = name[len("vllm-"):-len(".tar.gz")]
            releases[version] = [{
                "filename": name, "packagetype": "sdist", "url": f"../../packages/{name}",
                "size": self.declared.get(version, len(data)), "yanked": False,
                "digests": {"sha256": hashlib.sha256(data).hexdigest()},
                "upload_time_iso_8601": "2026-01-01T00:00:00Z"}]
        return json.dumps({"info": {"name": "vllm"}, "releases": releases}).encode()

    def __enter__(self) -> "LocalIndex":
        index = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                index.requests.append(self.path)
                if self.path == "/pypi/vllm/json":
                    body, kind = index.index_json(), "application/json"
                elif self.path.startswith("/packages/") and self.path[len("/packages/"):] in index.files:
                    body, kind = index.files[self.path[len("/packages/"):]], "application/gzip"
                else:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/pypi/vllm/json"

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
