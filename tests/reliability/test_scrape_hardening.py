"""Scraper hardening, end to end: ``build`` from a PyPI source (fake HTTP, real download,
digest check and archive reading) into a temporary copy of the committed database.

For every hostile or broken input (digest mismatch, truncated archive, ``..`` and absolute
member paths, symlink members, a huge member, HTTP 404 / 500 / timeouts with retries): a clear
one-line error, every write the build makes lands in the temporary area (writes are recorded by
wrapping the file-system calls), and the database copy is byte-for-byte unchanged.
"""

from __future__ import annotations

import builtins
import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
from pathlib import Path
from typing import Any, Optional

import pytest
import requests

from vllm_lint.scrape import build as B
from vllm_lint.scrape import sources as S

REPO_DB = Path(__file__).resolve().parents[2] / "flag_db"
ARCHIVE_URL = "https://files.example/packages/vllm-0.99.0.tar.gz"


class Resp:
    def __init__(self, status: int = 200, body: bytes = b"", headers: Optional[dict] = None):
        self.status_code, self._body, self.headers = status, body, headers or {}

    def json(self) -> Any:
        return json.loads(self._body)

    def iter_content(self, chunk_size: int = 1):
        for i in range(0, len(self._body), chunk_size):
            yield self._body[i:i + chunk_size]

    def close(self) -> None:
        pass


class Session:
    def __init__(self, routes: dict[str, list[Any]]):
        self.routes, self.calls = routes, []

    def get(self, url, timeout=None, stream=False, headers=None):
        self.calls.append(url)
        q = self.routes.get(url, [Resp(404)])
        item = q.pop(0) if len(q) > 1 else q[0]
        if isinstance(item, BaseException):
            raise item
        return item


def tar_gz(entries: list[tuple[str, Any]]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            if isinstance(data, tuple):
                info.type = tarfile.SYMTYPE
                info.linkname = data[1]
                tf.addfile(info)
            else:
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


GOOD_MEMBERS = [("vllm-0.99.0/PKG-INFO", b"Metadata-Version: 2.1\n"),
                ("vllm-0.99.0/vllm/__init__.py", b""),
                ("vllm-0.99.0/vllm/engine/arg_utils.py", b"# args\n")]


def stub_extract(tree, version, source):
    return {"schema": B.SCHEMA, "version": version, "source": source,
            "era": {"entry": "x"}, "positionals": [], "env": {},
            "options": [{"name": "--port", "aliases": [], "paths": sorted(tree.paths()),
                         "config": (tree.read("vllm/config.py") or b"").decode("latin-1")}]}


def source_for(archive: Optional[bytes], cache: Path, digest: Optional[str] = None,
               archive_route: Optional[list] = None, index_route: Optional[list] = None) -> tuple[S.PyPISource, Session, list]:
    entry = {"filename": "vllm-0.99.0.tar.gz", "packagetype": "sdist", "url": ARCHIVE_URL,
             "digests": {"sha256": digest or hashlib.sha256(archive or b"").hexdigest()}}
    index = json.dumps({"info": {}, "releases": {"0.99.0": [entry]}}).encode()
    sess = Session({S.PYPI_JSON_URL: index_route or [Resp(200, index)],
                    ARCHIVE_URL: archive_route or [Resp(200, archive or b"")]})
    sleeps: list[float] = []
    http = S.Http(session=sess, retries=3, backoff=0.5, sleep=sleeps.append)
    return S.PyPISource(http=http, cache_dir=cache), sess, sleeps


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def area(tmp_path, monkeypatch):
    """A copy of the committed database, a cache and a working directory, all under tmp_path;
    every path the code writes, creates or renames is recorded."""
    db = tmp_path / "db"
    if (REPO_DB / "releases").is_dir():
        shutil.copytree(REPO_DB, db, ignore=shutil.ignore_patterns("__pycache__"))
    else:  # pragma: no cover - a checkout without the database
        (db / "releases").mkdir(parents=True)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    writes: list[str] = []
    real_open, real_replace, real_mkstemp, real_mkdir = builtins.open, os.replace, tempfile.mkstemp, os.mkdir

    def rec_open(file, mode="r", *a, **k):
        if isinstance(file, (str, bytes, os.PathLike)) and any(c in mode for c in "wax+"):
            writes.append(os.path.abspath(file))
        return real_open(file, mode, *a, **k)

    def rec_replace(src, dst, *a, **k):
        writes.append(os.path.abspath(dst))
        return real_replace(src, dst, *a, **k)

    def rec_mkstemp(*a, **k):
        fd, name = real_mkstemp(*a, **k)
        writes.append(os.path.abspath(name))
        return fd, name

    def rec_mkdir(path, *a, **k):
        writes.append(os.path.abspath(path))
        return real_mkdir(path, *a, **k)

    monkeypatch.setattr(builtins, "open", rec_open)
    monkeypatch.setattr(os, "replace", rec_replace)
    monkeypatch.setattr(tempfile, "mkstemp", rec_mkstemp)
    monkeypatch.setattr(os, "mkdir", rec_mkdir)
    yield {"db": db, "cache": tmp_path / "cache", "writes": writes, "tmp": tmp_path}
    monkeypatch.undo()
    outside = [w for w in writes if not w.startswith(str(tmp_path))]
    assert outside == [], f"written outside the temporary area: {outside}"


def build_and_check_failure(area, src, expect: str) -> str:
    before = snapshot(area["db"])
    res = B.build(src, None, area["db"], jobs=1, extractor=stub_extract, resolved=["0.99.0"])
    assert not res.ok and len(res.releases) == 1
    msg = res.releases[0].reason
    assert "\n" not in msg and expect in msg, msg
    assert "Traceback" not in msg
    assert snapshot(area["db"]) == before, "the database copy changed"
    leftovers = [p.name for p in area["cache"].rglob("*") if p.suffix in (".part", ".tmp")]
    assert leftovers == [], leftovers
    return msg


def _msg(r) -> str:
    return r.reason


# ----------------------------------------------------------------------------- archive content


def test_good_archive_builds(area):
    src, _, _ = source_for(tar_gz(GOOD_MEMBERS), area["cache"])
    res = B.build(src, None, area["db"], jobs=1, extractor=stub_extract, resolved=["0.99.0"], index=False)
    assert res.ok, [_msg(r) for r in res.releases]
    assert (area["db"] / "releases" / "0.99.0.json").is_file()
    # the recorder sees the build's writes (so an empty "outside" list means something)
    assert any(w.endswith("0.99.0.json") for w in area["writes"])


def test_digest_mismatch(area):
    src, _, _ = source_for(tar_gz(GOOD_MEMBERS), area["cache"], digest="0" * 64)
    build_and_check_failure(area, src, "sha256 mismatch")
    assert not (area["cache"] / "archives" / "vllm-0.99.0.tar.gz").exists()


def test_truncated_archive(area):
    data = tar_gz(GOOD_MEMBERS + [("vllm-0.99.0/vllm/config.py", os.urandom(50_000))])
    cut = data[: len(data) // 2]
    src, _, _ = source_for(cut, area["cache"])
    msg = build_and_check_failure(area, src, "vllm-0.99.0.tar.gz")
    assert "truncated" in msg or "corrupt" in msg


def test_truncated_tar_inside_intact_gzip(area):
    import gzip

    raw = gzip.decompress(tar_gz(GOOD_MEMBERS + [("vllm-0.99.0/vllm/config.py", os.urandom(50_000))]))
    src, _, _ = source_for(gzip.compress(raw[: len(raw) // 2]), area["cache"])
    build_and_check_failure(area, src, "vllm-0.99.0.tar.gz")


@pytest.mark.parametrize("bad", ["vllm-0.99.0/../../evil.py", "../evil.py", "/etc/evil.py",
                                 "vllm-0.99.0/vllm/../../../evil.py", "C:/evil.py"])
def test_unsafe_member_paths(area, bad):
    src, _, _ = source_for(tar_gz(GOOD_MEMBERS + [(bad, b"print('pwned')\n")]), area["cache"])
    build_and_check_failure(area, src, "unsafe member path")
    assert not list(area["tmp"].rglob("evil.py")) and not Path("/etc/evil.py").exists()


def test_symlink_members_are_not_followed(area):
    members = GOOD_MEMBERS + [("vllm-0.99.0/vllm/config.py", ("symlink", "/etc/passwd")),
                              ("vllm-0.99.0/vllm/envs.py", ("symlink", "../../../../etc/shadow"))]
    src, _, _ = source_for(tar_gz(members), area["cache"])
    res = B.build(src, None, area["db"], jobs=1, extractor=stub_extract, resolved=["0.99.0"], index=False)
    assert res.ok, [_msg(r) for r in res.releases]
    rec = json.loads((area["db"] / "releases" / "0.99.0.json").read_text())
    opt = rec["options"][0]
    assert opt["config"] == "" and "root:" not in json.dumps(rec)
    assert "vllm/config.py" not in opt["paths"] and "vllm/envs.py" not in opt["paths"]


def test_huge_member(area):
    huge = b"\0" * (S.MAX_MEMBER_BYTES + 1)  # compresses to a few KB
    src, _, _ = source_for(tar_gz(GOOD_MEMBERS + [("vllm-0.99.0/vllm/config.py", huge)]), area["cache"])
    build_and_check_failure(area, src, "limit")


def test_gzip_bomb(area, monkeypatch):
    # the inflation limit (1.5 GB) lowered so that a small bomb trips it without the real cost: a
    # valid sdist whose unwanted member inflates past it (the stream reads through that member)
    monkeypatch.setattr(S, "MAX_INFLATED_BYTES", 4 * 1024 * 1024)
    bomb = tar_gz(GOOD_MEMBERS + [("vllm-0.99.0/data/zeros.bin", b"\0" * (16 * 1024 * 1024))])
    assert len(bomb) < 64 * 1024
    src, _, _ = source_for(bomb, area["cache"])
    build_and_check_failure(area, src, "inflates to more than")
    # a gzip stream of zeros is no tar at all: refused at its first block, nothing inflated past it
    import gzip

    src, _, _ = source_for(gzip.compress(b"\0" * (16 * 1024 * 1024)), area["cache"])
    build_and_check_failure(area, src, "unexpected layout")


def test_inflation_is_streamed_and_stops_at_the_cap():
    """Issue 34: a 1.4 MB archive used to be inflated whole (2.9 GB peak) before any limit applied.
    The archive is read as a stream now: memory stays near one buffer whatever the archive inflates
    to, and reading stops at the cap."""
    import tracemalloc

    bomb = tar_gz(GOOD_MEMBERS + [("vllm-0.99.0/data/zeros.bin", b"\0" * (96 * 1024 * 1024))])
    cap = 64 * 1024 * 1024
    tracemalloc.start()
    try:
        with pytest.raises(S.ArchiveError, match="inflates to more than"):
            S.read_tar(bomb, "bomb.tar.gz", max_inflated=cap)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # about 10 MB (buffers) whatever the archive inflates to; the old reader held all of it (> cap)
    assert peak < cap // 4, peak
    # the same archive under a cap it fits is read, its unwanted member never kept
    tree = S.read_tar(bomb, "bomb.tar.gz", max_inflated=128 * 1024 * 1024)
    assert tree.read("vllm/engine/arg_utils.py") == b"# args\n" and tree.read("data/zeros.bin") is None


def test_not_an_archive(area):
    src, _, _ = source_for(b"<html>proxy login</html>", area["cache"])
    build_and_check_failure(area, src, "not a readable tar archive")


# ----------------------------------------------------------------------------- HTTP


def test_http_404_for_the_archive(area):
    src, sess, sleeps = source_for(b"", area["cache"], archive_route=[Resp(404)])
    build_and_check_failure(area, src, "404")
    assert sess.calls.count(ARCHIVE_URL) == 1 and sleeps == []  # not retried


def test_http_500_is_retried_then_fails(area):
    src, sess, sleeps = source_for(b"", area["cache"], archive_route=[Resp(500)])
    build_and_check_failure(area, src, "after 4 attempts: HTTP 500")
    assert sess.calls.count(ARCHIVE_URL) == 4 and sleeps == [0.5, 1.0, 2.0]


def test_timeouts_are_retried_then_fail(area):
    src, sess, sleeps = source_for(b"", area["cache"], archive_route=[requests.Timeout("Read timed out")])
    msg = build_and_check_failure(area, src, "timed out")
    assert sess.calls.count(ARCHIVE_URL) == 4 and len(sleeps) == 3 and "offline?" in msg


def test_transient_500_then_success(area):
    data = tar_gz(GOOD_MEMBERS)
    src, sess, sleeps = source_for(data, area["cache"], archive_route=[Resp(503), Resp(200, data)])
    res = B.build(src, None, area["db"], jobs=1, extractor=stub_extract, resolved=["0.99.0"], index=False)
    assert res.ok and sleeps == [0.5]


@pytest.mark.parametrize("route, expect", [
    ([Resp(404)], "404"),
    ([Resp(500)], "HTTP 500"),
    ([requests.Timeout("Read timed out")], "timed out"),
    ([Resp(200, b"<html>not json</html>")], "not JSON"),
])
def test_index_failures_are_one_line_cli_errors(area, monkeypatch, route, expect):
    from click.testing import CliRunner

    from vllm_lint.cli import db_command as cli_db

    src, _, _ = source_for(b"", area["cache"], index_route=route)
    monkeypatch.setattr(S, "make_source", lambda kind, repo=None: src)
    monkeypatch.setattr(B, "_default_extractor", lambda: stub_extract)
    before = snapshot(area["db"])
    r = CliRunner().invoke(cli_db.db, ["build", "--db-dir", str(area["db"]), "--jobs", "1"])
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and expect in lines[0] and "Traceback" not in r.output
    assert snapshot(area["db"]) == before
