"""Release sources: archive reading, PyPI index/download, HTTP retries, GitHub, local git.

Offline and deterministic: HTTP goes through a fake session, archives are built in tmp_path.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path
from typing import Any, Optional

import pytest
import requests

from vllm_lint.scrape import sources as S

# ---------------------------------------------------------------------------------------------
# helpers


def make_tar(entries: list[tuple[str, Any]], mode: str = "w:gz") -> bytes:
    """entries: (name, bytes) for files, (name, ("symlink", target)), (name, ("hardlink", target)),
    (name, None) for a directory."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as tf:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                tf.addfile(info)
            elif isinstance(data, tuple):
                info.type = tarfile.SYMTYPE if data[0] == "symlink" else tarfile.LNKTYPE
                info.linkname = data[1]
                tf.addfile(info)
            else:
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def make_zip(entries: list[tuple[str, Any]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name)
            if isinstance(data, tuple):  # symlink
                info.external_attr = (0o120777 << 16)
                zf.writestr(info, data[1])
            else:
                info.external_attr = (0o100644 << 16)
                zf.writestr(info, data)
    return buf.getvalue()


SDIST = [
    ("vllm-0.9.0", None),
    ("vllm-0.9.0/PKG-INFO", b"Metadata-Version: 2.1\n"),
    ("vllm-0.9.0/pyproject.toml", b"[project]\n"),
    ("vllm-0.9.0/requirements/common.txt", b"requests\n"),
    ("vllm-0.9.0/vllm", None),
    ("vllm-0.9.0/vllm/__init__.py", b""),
    ("vllm-0.9.0/vllm/engine/arg_utils.py", b"# engine args\n"),
    ("vllm-0.9.0/vllm/config.py", b"# config\n"),
    ("vllm-0.9.0/vllm/model_executor/models/llama.py", b"# model, skipped\n"),
    ("vllm-0.9.0/vllm/model_executor/layers/quantization/__init__.py", b"QUANTIZATION_METHODS = []\n"),
    ("vllm-0.9.0/vllm/model_executor/layers/linear.py", b"# skipped\n"),
    ("vllm-0.9.0/csrc/ops.cu", b"// skipped\n"),
    ("vllm-0.9.0/vllm/entrypoints/openai/cli_args.py", b"# cli\n"),
]


class FakeResp:
    def __init__(self, status: int = 200, body: bytes = b"", headers: Optional[dict] = None,
                 links: Optional[dict] = None, broken_body: bool = False):
        self.status_code = status
        self._body = body
        self.headers = headers or {}
        self.links = links or {}
        self.closed = False
        self.broken_body = broken_body
        self.served = 0  # body bytes handed out

    def json(self) -> Any:
        return json.loads(self._body)

    def iter_content(self, chunk_size: int = 1) -> Any:
        if self.broken_body:
            yield self._body[:10]
            raise requests.ConnectionError("Connection reset by peer")
        for i in range(0, len(self._body), chunk_size):
            self.served += len(self._body[i:i + chunk_size])
            yield self._body[i:i + chunk_size]

    def close(self) -> None:
        self.closed = True


class FakeSession:
    """Routes: url -> list of responses/exceptions, consumed in order (the last one repeats)."""

    def __init__(self, routes: dict[str, list[Any]]):
        self.routes = routes
        self.calls: list[tuple[str, dict]] = []

    def get(self, url: str, timeout: Any = None, stream: bool = False, headers: Any = None) -> Any:
        self.calls.append((url, {"timeout": timeout, "stream": stream, "headers": headers}))
        if url not in self.routes:
            return FakeResp(404)
        queue = self.routes[url]
        item = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(item, BaseException):
            raise item
        return item


def http(routes: dict[str, list[Any]], retries: int = 3) -> tuple[S.Http, FakeSession, list[float]]:
    sleeps: list[float] = []
    sess = FakeSession(routes)
    return S.Http(session=sess, retries=retries, backoff=0.5, sleep=sleeps.append), sess, sleeps


def sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


# ---------------------------------------------------------------------------------------------
# member selection and archive reading


def test_wanted_is_generous_but_bounded() -> None:
    assert S.wanted("vllm/engine/arg_utils.py")
    assert S.wanted("vllm/config/parallel.py")
    assert S.wanted("vllm/entrypoints/openai/cli_args.py")
    assert S.wanted("vllm/utils/argparse_utils.py")
    assert S.wanted("vllm/envs.py")
    assert S.wanted("vllm/model_executor/layers/quantization/__init__.py")
    assert S.wanted("requirements-common.txt") and S.wanted("requirements/common.txt")
    assert not S.wanted("vllm/model_executor/models/llama.py")
    assert S.wanted("vllm/model_executor/layers/quantization/utils/w8a8.py")
    assert not S.wanted("vllm/models/kimi/model.py")
    assert not S.wanted("vllm/_C.abi3.so")
    assert not S.wanted("csrc/attention.cu")
    assert not S.wanted("tests/test_config.py")


def test_sdist_prefix_stripped_and_only_wanted_members_read() -> None:
    tree = S.read_tar(make_tar(SDIST), "vllm-0.9.0.tar.gz")
    assert tree.read("vllm/engine/arg_utils.py") == b"# engine args\n"
    assert tree.read("vllm/model_executor/layers/quantization/__init__.py") is not None
    assert tree.read("pyproject.toml") == b"[project]\n"  # seen before the prefix was known
    assert tree.read("requirements/common.txt") == b"requests\n"
    assert tree.read("vllm/model_executor/models/llama.py") is None
    assert tree.read("vllm/model_executor/layers/linear.py") is not None
    assert tree.read("PKG-INFO") is None
    assert tree.listdir("vllm") == ["vllm/__init__.py", "vllm/config.py"]
    assert all(not p.startswith("vllm-0.9.0") for p in tree.paths())


def test_uncompressed_and_bz2_tar() -> None:
    for mode in ("w", "w:bz2"):
        tree = S.read_tar(make_tar(SDIST, mode=mode), "x.tar")
        assert tree.read("vllm/config.py") == b"# config\n"


def _tar_read_both(data: bytes) -> tuple[Any, Any, bool]:
    """The archive read by the fast reader (as ``read_tar`` does) and by ``tarfile`` alone; whether
    the fast reader took it itself (it hands anything unusual to ``tarfile``)."""
    taken = [True]
    fast = S.read_tar(data, "x.tar.gz")
    real = S._plain_tar_entries

    def plain(gz, max_member):
        try:
            yield from real(gz, max_member)
        except S._NotPlain:
            taken[0] = False
            raise

    def never(*a: Any, **k: Any):
        raise S._NotPlain("off")
        yield

    try:
        S._plain_tar_entries = plain
        S.read_tar(data, "x.tar.gz")
        S._plain_tar_entries = never
        slow = S.read_tar(data, "x.tar.gz")
    finally:
        S._plain_tar_entries = real
    return fast, slow, taken[0]


@pytest.mark.parametrize("fmt, taken", [(tarfile.PAX_FORMAT, True), (tarfile.USTAR_FORMAT, True),
                                        (tarfile.GNU_FORMAT, False)])
def test_fast_tar_reader_reads_what_tarfile_reads(fmt: int, taken: bool) -> None:
    """Long names (pax ``path``, ustar ``prefix``, GNU long names), non-ASCII names, a pax
    ``size``-sized member, directories, links and a git-archive style global header: the fast
    reader's tree is tarfile's, member for member; GNU long names go to tarfile."""
    deep = "vllm-0.9.0/vllm/" + "/".join(["sub"] * 30) + "/mod.py"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=fmt,
                      pax_headers={"comment": "1a2b3c"} if fmt == tarfile.PAX_FORMAT else None) as tf:
        for name, data in SDIST + [(deep, b"# deep\n"), ("vllm-0.9.0/vllm/caf\u00e9.py", b"# cafe\n"),
                                   ("vllm-0.9.0/vllm/big.py", b"x = 1\n" * 300)]:
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                tf.addfile(info)
                continue
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
        d = tarfile.TarInfo("vllm-0.9.0/vllm/pkg/")
        d.type = tarfile.DIRTYPE
        tf.addfile(d)
        link = tarfile.TarInfo("vllm-0.9.0/vllm/link.py")
        link.type, link.linkname = tarfile.SYMTYPE, "config.py"
        tf.addfile(link)
    fast, slow, took = _tar_read_both(buf.getvalue())
    assert took is taken
    assert fast._files == slow._files and list(fast._files) == list(slow._files)
    assert fast.read("vllm/" + "/".join(["sub"] * 30) + "/mod.py") == b"# deep\n"
    assert fast.read("vllm/caf\u00e9.py") == b"# cafe\n"


def test_fast_tar_reader_hands_damage_to_tarfile() -> None:
    """A bad checksum, or a member cut short: the fast reader gives up and tarfile's answer (here
    an ArchiveError in its words) is the answer."""
    good = gzip_decompress(make_tar(SDIST))
    bad_sum = bytearray(good)
    bad_sum[512 + 148:512 + 156] = b"0000000\0"  # the second member's checksum
    cut = good[:512 * 3 + 100]
    for raw in (bytes(bad_sum), cut):
        import gzip

        data = gzip.compress(raw)
        with pytest.raises(S.ArchiveError) as fast_err:
            S.read_tar(data, "x.tar.gz")
        real = S._plain_tar_entries

        def never(*a: Any, **k: Any):
            raise S._NotPlain("off")
            yield

        S._plain_tar_entries = never
        try:
            with pytest.raises(S.ArchiveError) as slow_err:
                S.read_tar(data, "x.tar.gz")
        finally:
            S._plain_tar_entries = real
        assert str(fast_err.value) == str(slow_err.value)


def gzip_decompress(data: bytes) -> bytes:
    import gzip

    return gzip.decompress(data)


def test_wheel_layout_has_no_prefix(tmp_path: Path) -> None:
    data = make_zip([
        ("vllm-0.4.0.dist-info/METADATA", b"x"),
        ("vllm/__init__.py", b""),
        ("vllm/engine/arg_utils.py", b"# args\n"),
        ("vllm/_C.abi3.so", b"\x7fELF"),
        ("vllm/entrypoints/link.py", ("symlink", "../../etc/passwd")),
    ])
    p = tmp_path / "vllm-0.4.0-cp311-cp311-manylinux1_x86_64.whl"
    p.write_bytes(data)
    tree = S.read_archive(p)
    assert tree.read("vllm/engine/arg_utils.py") == b"# args\n"
    assert tree.read("vllm/_C.abi3.so") is None
    assert tree.read("vllm/entrypoints/link.py") is None  # symlink never followed


def test_symlink_and_hardlink_members_are_not_followed() -> None:
    data = make_tar(SDIST + [
        ("vllm-0.9.0/vllm/envs.py", ("symlink", "/etc/passwd")),
        ("vllm-0.9.0/vllm/sequence.py", ("hardlink", "vllm-0.9.0/vllm/config.py")),
    ])
    tree = S.read_tar(data, "x.tar.gz")
    assert tree.read("vllm/envs.py") is None
    assert tree.read("vllm/sequence.py") is None
    assert tree.read("vllm/config.py") == b"# config\n"


@pytest.mark.parametrize("bad", ["vllm-0.9.0/../../evil.py", "/etc/vllm/x.py", "vllm-0.9.0/vllm/../../x.py"])
def test_unsafe_member_paths_reject_the_archive(bad: str) -> None:
    data = make_tar(SDIST + [(bad, b"x")])
    with pytest.raises(S.ArchiveError, match="unsafe member path"):
        S.read_tar(data, "evil.tar.gz")


def test_unsafe_member_path_in_zip() -> None:
    data = make_zip([("vllm/__init__.py", b""), ("../evil.py", b"x")])
    with pytest.raises(S.ArchiveError, match="unsafe"):
        S.read_zip(data, "evil.whl")


def test_huge_member_is_refused() -> None:
    data = make_tar(SDIST + [("vllm-0.9.0/vllm/big.py", b"#" * 5000)])
    with pytest.raises(S.ArchiveError, match="vllm/big.py"):
        S.read_tar(data, "x.tar.gz", max_member=4096)
    # a huge member that is not wanted is never read
    data = make_tar(SDIST + [("vllm-0.9.0/vllm/model_executor/models/big.py", b"#" * 5000)])
    assert S.read_tar(data, "x.tar.gz", max_member=4096).read("vllm/config.py") is not None


def test_total_bytes_cap() -> None:
    entries = SDIST + [(f"vllm-0.9.0/vllm/m{i}.py", b"#" * 1000) for i in range(20)]
    with pytest.raises(S.ArchiveError, match="exceed"):
        S.read_tar(make_tar(entries), "x.tar.gz", max_total=10_000)


def test_unexpected_layouts() -> None:
    with pytest.raises(S.ArchiveError, match="unexpected layout"):
        S.read_tar(make_tar([("pkg-1.0/setup.py", b""), ("pkg-1.0/src/x.py", b"")]), "pkg.tar.gz")
    with pytest.raises(S.ArchiveError, match="several top-level"):
        S.read_tar(make_tar(SDIST + [("other/vllm/x.py", b"")]), "x.tar.gz")
    with pytest.raises(S.ArchiveError, match="no vllm"):
        S.read_tar(make_tar([("vllm-1/vllm/README.md", b"")]), "x.tar.gz")
    with pytest.raises(S.ArchiveError, match="not a readable"):
        S.read_tar(b"this is not a tarball", "x.tar.gz")
    with pytest.raises(S.ArchiveError, match="not a readable"):
        S.read_zip(b"PK nope", "x.whl")


def test_truncated_archive_is_an_archive_error() -> None:
    data = make_tar(SDIST + [(f"vllm-0.9.0/vllm/m{i}.py", os.urandom(3000)) for i in range(10)])
    with pytest.raises(S.ArchiveError):
        S.read_tar(data[: len(data) // 2], "x.tar.gz")


# ---------------------------------------------------------------------------------------------
# HTTP retries


def test_retries_on_5xx_with_exponential_backoff() -> None:
    h, sess, sleeps = http({"https://x/a": [FakeResp(500), FakeResp(503), FakeResp(200, b"{}")]})
    assert h.get("https://x/a").status_code == 200
    assert len(sess.calls) == 3 and sleeps == [0.5, 1.0]
    assert sess.calls[0][1]["timeout"] is not None


def test_429_honours_retry_after() -> None:
    h, _, sleeps = http({"https://x/a": [FakeResp(429, headers={"Retry-After": "7"}), FakeResp(200)]})
    h.get("https://x/a")
    assert sleeps == [7.0]


def test_404_is_not_retried() -> None:
    h, sess, sleeps = http({})
    with pytest.raises(S.NotFoundError, match="404"):
        h.get("https://x/missing")
    assert len(sess.calls) == 1 and sleeps == []


def test_other_4xx_fails_without_retry() -> None:
    h, sess, _ = http({"https://x/a": [FakeResp(403)]})
    with pytest.raises(S.NetworkError, match="HTTP 403"):
        h.get("https://x/a")
    assert len(sess.calls) == 1


def test_timeouts_exhaust_retries_with_one_line_message() -> None:
    h, sess, sleeps = http({"https://x/a": [requests.Timeout("Read timed out. (read timeout=60)")]}, retries=2)
    with pytest.raises(S.NetworkError) as ei:
        h.get("https://x/a")
    assert len(sess.calls) == 3 and sleeps == [0.5, 1.0]
    assert "\n" not in str(ei.value) and "after 3 attempts" in str(ei.value)


def test_offline_message() -> None:
    err = requests.ConnectionError(
        "HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded with url: /pypi/vllm/json "
        "(Caused by NameResolutionError(\"<urllib3.connection.HTTPSConnection object at 0x7f>: "
        "Failed to resolve 'pypi.org' ([Errno -3] Temporary failure in name resolution)\"))")
    h, _, _ = http({S.PYPI_JSON_URL: [err]}, retries=1)
    src = S.PyPISource(http=h, cache_dir="/nonexistent-vllm-lint-cache")
    with pytest.raises(S.NetworkError) as ei:
        src.versions()
    msg = str(ei.value)
    assert "\n" not in msg and "offline" in msg and "pypi.org" in msg and "0x7f" not in msg


def test_http_is_picklable_without_its_session() -> None:
    h, _, _ = http({})
    h2 = pickle.loads(pickle.dumps(h))
    assert h2._session is None and h2.retries == h.retries


# ---------------------------------------------------------------------------------------------
# PyPI


def pypi_index(files: dict[str, list[dict]]) -> bytes:
    return json.dumps({"info": {"name": "vllm"}, "releases": files}).encode()


def fentry(filename: str, data: bytes, packagetype: str, digest: Optional[str] = None) -> dict:
    return {"filename": filename, "packagetype": packagetype,
            "url": f"../../packages/packages/ab/cd/{filename}",
            "digests": {"sha256": digest or sha(data)}, "yanked": False}


@pytest.fixture
def pypi(tmp_path: Path) -> Any:
    sdist = make_tar(SDIST)
    wheel = make_zip([("vllm/__init__.py", b""), ("vllm/engine/arg_utils.py", b"# wheel args\n")])
    files = {
        "0.3.9": [fentry("vllm-0.3.9.tar.gz", sdist, "sdist")],
        "0.4.0": [fentry("vllm-0.4.0-cp39-cp39-manylinux1_x86_64.whl", wheel, "bdist_wheel"),
                  fentry("vllm-0.4.0-cp311-cp311-manylinux1_aarch64.whl", wheel, "bdist_wheel"),
                  fentry("vllm-0.4.0-cp311-cp311-manylinux1_x86_64.whl", wheel, "bdist_wheel")],
        "0.4.0.post1": [fentry("vllm-0.4.0.post1.tar.gz", sdist, "sdist"),
                        fentry("vllm-0.4.0.post1-cp311-cp311-manylinux1_x86_64.whl", wheel, "bdist_wheel")],
        "0.5.0rc1": [fentry("vllm-0.5.0rc1.tar.gz", sdist, "sdist")],
        "0.5.0.dev3": [fentry("vllm-0.5.0.dev3.tar.gz", sdist, "sdist")],
        "0.9.0": [fentry("vllm-0.9.0.tar.gz", sdist, "sdist")],
        "0.9.1": [],
        "0.9.2": [fentry("vllm-0.9.2.tar.gz", sdist, "sdist", digest="0" * 64)],
    }
    base = "https://pypi.org/packages/packages/ab/cd/"
    routes: dict[str, list[Any]] = {S.PYPI_JSON_URL: [FakeResp(200, pypi_index(files))]}
    for fname, data in [("vllm-0.3.9.tar.gz", sdist), ("vllm-0.4.0.post1.tar.gz", sdist),
                        ("vllm-0.9.0.tar.gz", sdist), ("vllm-0.9.2.tar.gz", sdist),
                        ("vllm-0.4.0-cp311-cp311-manylinux1_x86_64.whl", wheel)]:
        routes[base + fname] = [FakeResp(200, data)]
    h, sess, sleeps = http(routes)
    src = S.PyPISource(http=h, cache_dir=tmp_path / "cache")
    return src, sess, sdist, wheel


def test_pypi_versions_skip_pre_dev_and_empty(pypi: Any) -> None:
    src, *_ = pypi
    assert src.versions() == ["0.3.9", "0.4.0", "0.4.0.post1", "0.9.0", "0.9.2"]


def test_pypi_relative_urls_resolved_against_the_json_url(pypi: Any) -> None:
    src, sess, sdist, _ = pypi
    tree, record = src.fetch("0.9.0")
    urls = [c[0] for c in sess.calls]
    assert "https://pypi.org/packages/packages/ab/cd/vllm-0.9.0.tar.gz" in urls
    assert record == {"kind": "sdist", "archive": "vllm-0.9.0.tar.gz", "sha256": sha(sdist)}
    assert tree.read("vllm/engine/arg_utils.py") == b"# engine args\n"


def test_pypi_prefers_sdist_else_x86_64_cp311_wheel(pypi: Any) -> None:
    src, *_ = pypi
    assert src.file_for("0.4.0.post1")["filename"] == "vllm-0.4.0.post1.tar.gz"
    assert src.file_for("0.4.0")["filename"] == "vllm-0.4.0-cp311-cp311-manylinux1_x86_64.whl"
    tree, record = src.fetch("0.4.0")
    assert record["kind"] == "wheel" and tree.read("vllm/engine/arg_utils.py") == b"# wheel args\n"


def test_pypi_digest_mismatch_discards_the_file(pypi: Any, tmp_path: Path) -> None:
    src, *_ = pypi
    with pytest.raises(S.IntegrityError, match="sha256 mismatch.*discarded"):
        src.fetch("0.9.2")
    assert list((tmp_path / "cache" / "archives").iterdir()) == []


def test_pypi_cache_reused_when_digest_matches(pypi: Any, tmp_path: Path) -> None:
    src, sess, sdist, _ = pypi
    src.fetch("0.9.0")
    n = len(sess.calls)
    src.fetch("0.9.0")
    assert len(sess.calls) == n  # no second download
    # a corrupted cache entry is replaced
    (tmp_path / "cache" / "archives" / "vllm-0.9.0.tar.gz").write_bytes(b"garbage")
    src.fetch("0.9.0")
    assert len(sess.calls) == n + 1
    assert (tmp_path / "cache" / "archives" / "vllm-0.9.0.tar.gz").read_bytes() == sdist


def test_pypi_interrupted_download_leaves_no_partial_file(tmp_path: Path) -> None:
    data = make_tar(SDIST)
    files = {"0.9.0": [fentry("vllm-0.9.0.tar.gz", data, "sdist")]}
    h, _, _ = http({S.PYPI_JSON_URL: [FakeResp(200, pypi_index(files))],
                    "https://pypi.org/packages/packages/ab/cd/vllm-0.9.0.tar.gz": [FakeResp(200, data, broken_body=True)]})
    src = S.PyPISource(http=h, cache_dir=tmp_path)
    with pytest.raises(S.NetworkError, match="interrupted"):
        src.fetch("0.9.0")
    assert list((tmp_path / "archives").iterdir()) == []


def test_pypi_download_stops_at_the_declared_size(tmp_path: Path) -> None:
    """Issue 34: a file whose index entry declares 1,000 bytes was downloaded whole (300 MB). The
    download stops past the declared size, and a shorter file is refused too."""
    data = make_tar(SDIST)
    big = data + b"\0" * (4 << 20)
    url = "https://pypi.org/packages/packages/ab/cd/vllm-0.9.0.tar.gz"
    for body, declared, expect in ((big, len(data), "larger than the"), (data[:-10], len(data), "the index declares")):
        entry = dict(fentry("vllm-0.9.0.tar.gz", body, "sdist"), size=declared)
        resp = FakeResp(200, body)
        h, _, _ = http({S.PYPI_JSON_URL: [FakeResp(200, pypi_index({"0.9.0": [entry]}))], url: [resp]})
        src = S.PyPISource(http=h, cache_dir=tmp_path / expect)
        with pytest.raises(S.IntegrityError, match=expect):
            src.fetch("0.9.0")
        assert list((tmp_path / expect / "archives").iterdir()) == []
        if body is big:
            assert resp.served <= len(data) + (1 << 20)  # one chunk past the declared size, not the rest


def test_pypi_unknown_version(pypi: Any) -> None:
    src, *_ = pypi
    with pytest.raises(S.NotFoundError, match="0.99.0"):
        src.fetch("0.99.0")
    with pytest.raises(S.NotFoundError, match="no sdist or wheel"):
        src.fetch("0.9.1")


def test_pypi_uses_cached_index_when_offline(pypi: Any, tmp_path: Path) -> None:
    src, *_ = pypi
    src.versions()  # caches the index
    h, _, _ = http({S.PYPI_JSON_URL: [requests.ConnectionError("Network is unreachable")]}, retries=0)
    offline = S.PyPISource(http=h, cache_dir=tmp_path / "cache")
    assert "0.9.0" in offline.versions()
    assert offline.notes and "cached index" in offline.notes[0]


def test_pypi_source_pickles(pypi: Any) -> None:
    src, *_ = pypi
    src.versions()
    clone = pickle.loads(pickle.dumps(src))
    assert clone.versions() == src.versions()


# ---------------------------------------------------------------------------------------------
# GitHub (mocked: this machine cannot reach github)


def test_github_tags_tarball_and_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "t0ken")
    api = "https://api.github.com/repos/vllm-project/vllm"
    page2 = f"{api}/tags?per_page=100&page=2"
    tarball = make_tar([("vllm-project-vllm-abc123/", None),
                        ("vllm-project-vllm-abc123/vllm/__init__.py", b""),
                        ("vllm-project-vllm-abc123/vllm/engine/arg_utils.py", b"# gh\n")])
    h, sess, _ = http({
        f"{api}/tags?per_page=100": [FakeResp(200, json.dumps([{"name": "v0.9.0"}, {"name": "v0.9.0rc1"},
                                                                 {"name": "nightly"}]).encode(),
                                              links={"next": {"url": page2}})],
        page2: [FakeResp(200, json.dumps([{"name": "v0.8.5.post1"}, {"name": "v0.8.5"}]).encode())],
        f"{api}/tarball/v0.9.0": [FakeResp(502), FakeResp(200, tarball)],
    })
    src = S.GitHubSource(http=h)
    assert src.versions() == ["0.8.5", "0.8.5.post1", "0.9.0"]
    tree, record = src.fetch("0.9.0")
    assert tree.read("vllm/engine/arg_utils.py") == b"# gh\n"
    assert record == {"kind": "github", "repo": "vllm-project/vllm", "ref": "v0.9.0"}
    assert all(c[1]["headers"]["Authorization"] == "Bearer t0ken" for c in sess.calls)
    with pytest.raises(S.NotFoundError):
        src.fetch("0.1.0")


def test_github_without_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    h, _, _ = http({})
    src = S.GitHubSource(http=h)
    assert "Authorization" not in src.http.headers


# ---------------------------------------------------------------------------------------------
# local git


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@e", *args],
                   check=True, capture_output=True)


@pytest.fixture
def gitrepo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    repo = tmp_path / "vllm"
    (repo / "vllm" / "engine").mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / "vllm" / "__init__.py").write_text("")
    (repo / "vllm" / "engine" / "arg_utils.py").write_text("# v1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")
    git(repo, "tag", "v0.1.0")
    (repo / "vllm" / "engine" / "arg_utils.py").write_text("# v2\n")
    (repo / "vllm" / "config.py").write_text("# cfg\n")
    os.symlink("config.py", repo / "vllm" / "alias.py")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two")
    git(repo, "tag", "v0.2.0")
    git(repo, "tag", "v0.3.0rc1")
    git(repo, "tag", "nightly")
    return repo


def test_git_source(gitrepo: Path) -> None:
    src = S.GitSource(gitrepo)
    assert src.versions() == ["0.1.0", "0.2.0"]
    t1, r1 = src.fetch("0.1.0")
    t2, r2 = src.fetch("0.2.0")
    assert r1 == {"kind": "git", "ref": "v0.1.0"}
    assert t1.read("vllm/engine/arg_utils.py") == b"# v1\n"
    assert t2.read("vllm/engine/arg_utils.py") == b"# v2\n"
    assert t1.read("vllm/config.py") is None
    assert t2.listdir("vllm") == ["vllm/__init__.py", "vllm/config.py"]  # symlink excluded
    assert t2.read("vllm/alias.py") is None
    with pytest.raises(S.NotFoundError):
        src.fetch("0.3.0")
    pickle.loads(pickle.dumps(src))


def test_git_source_errors(tmp_path: Path) -> None:
    with pytest.raises(S.SourceError, match="not a directory"):
        S.GitSource(tmp_path / "nope")
    (tmp_path / "plain").mkdir()
    with pytest.raises(S.SourceError, match="git tag failed"):
        S.GitSource(tmp_path / "plain").versions()
    with pytest.raises(S.SourceError, match="--repo"):
        S.make_source("git", None)


# ---------------------------------------------------------------------------------------------
# network (skipped unless --run-network)


@pytest.mark.network
def test_real_pypi_release_0_8_5() -> None:
    src = S.PyPISource()
    versions = src.versions()
    assert "0.8.5" in versions and "0.4.0" in versions
    tree, record = src.fetch("0.8.5")
    assert record["kind"] == "sdist" and record["archive"] == "vllm-0.8.5.tar.gz"
    args = tree.read("vllm/engine/arg_utils.py")
    assert args is not None and b"--swap-space" in args and b"--cudagraph-capture-sizes" not in args
    try:
        from vllm_lint.scrape.extract import extract_release
    except ImportError:
        return
    rec = extract_release(tree, "0.8.5", record)
    names = {o["name"] for o in rec["options"]} | {a for o in rec["options"] for a in o["aliases"]}
    assert "--swap-space" in names and "--cudagraph-capture-sizes" not in names
