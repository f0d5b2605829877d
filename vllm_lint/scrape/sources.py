"""Where a release's source comes from: a PyPI archive, a GitHub tag, or a local git checkout.

Every source answers two questions:

* ``versions()``: the releases it can provide, as PEP 440 strings sorted oldest first (final and
  post releases only; pre and dev releases are skipped);
* ``fetch(version)``: a :class:`~vllm_lint.scrape.tree.SourceTree` over that release's source plus
  the ``source`` record that goes into the release file (``{"kind": "sdist", "archive": ...,
  "sha256": ...}``).

Archives are never unpacked to disk. Only the members the extractor can need (see
:func:`wanted`) are read, into memory, with limits on member size and total bytes; symlinks and
hard links are never followed and members with absolute paths or ``..`` components make the whole
archive invalid.

All HTTP goes through ``requests`` with timeouts and retries (exponential backoff on connection
errors, timeouts, 429 and 5xx). Failures surface as :class:`SourceError` with a one-line message.
Sources are picklable (the HTTP session is recreated lazily), so the build can fetch and extract in
worker processes.
"""

from __future__ import annotations

import hashlib
import io
import os
import posixpath
import sys
import re
import subprocess
import tarfile
import tempfile
import time
import urllib.parse
import zipfile
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional

from packaging.version import InvalidVersion, Version

from vllm_lint.scrape import eras
from vllm_lint.scrape.tree import DictTree

PYPI_JSON_URL = "https://pypi.org/pypi/vllm/json"
GITHUB_API = "https://api.github.com"
GITHUB_REPO = "vllm-project/vllm"

#: Largest single member read from an archive; vLLM's biggest Python file is well under 1 MB.
MAX_MEMBER_BYTES = 8 * 1024 * 1024
#: Largest total of member bytes read from one archive.
MAX_TOTAL_BYTES = 160 * 1024 * 1024
#: Largest download when the index declares no size (a vLLM sdist is ~50 MB, a wheel ~400 MB);
#: where it declares one, the download stops past that size.
MAX_DOWNLOAD_BYTES = 1024 * 1024 * 1024

USER_AGENT = "vllm-lint (flag database builder; +https://github.com/vllm-project)"


class SourceError(Exception):
    """A release could not be obtained. ``str(err)`` is a one-line message for the user."""


class NetworkError(SourceError):
    """The host could not be reached, or kept failing after retries."""


class NotFoundError(SourceError):
    """The server answered 404 (no such project, release, tag or file)."""


class IntegrityError(SourceError):
    """A download did not match the digest the index published."""


class ArchiveError(SourceError):
    """An archive is malformed, unsafe, or not laid out like a vLLM release."""


# --------------------------------------------------------------------------------------------
# Which members to read


#: build metadata, the version module, the image's Dockerfiles (eras.py: where each era has them)
_WANTED_EXTRA = eras.ARCHIVE_EXTRA
#: Subtrees that are large and never define CLI options, choices or config classes (eras.py)
_SKIPPED_SUBTREES = eras.ARCHIVE_SKIPPED


def _build_member(path: str) -> bool:
    """The members that say which variables vLLM's build reads (``scrape/env_reads.py``): CMake
    files, Dockerfiles, and the scripts under ``tools/`` and ``.buildkite/`` they may call."""
    base = posixpath.basename(path)
    if path.startswith("cmake/") and path.endswith(".cmake"):
        return True
    if base.startswith("Dockerfile") and (path.count("/") == 0 or path.startswith("docker/")):
        return True
    return path.startswith(eras.BUILD_SCRIPT_DIRS) and path.endswith((".py", ".sh")) and path.count("/") <= 2


def wanted(path: str) -> bool:
    """Whether the member ``path`` (relative to the source root) is read.

    Generous on purpose, since choices and defaults can be resolved from almost anywhere in the
    package: every Python module under ``vllm/`` except model implementations and vendored code,
    whose size dwarfs the rest. Also the requirement files and build metadata (the cross-check
    tool reads them).
    """
    if path in _WANTED_EXTRA or path == "CMakeLists.txt":
        return True
    if _build_member(path):
        return True
    if path.startswith("requirements") and path.endswith(".txt"):
        # requirements-common.txt (old) and requirements/common.txt (new)
        return path.count("/") <= 1
    if not (path.startswith("vllm/") and path.endswith(".py")):
        return False
    return not any(path.startswith(s) for s in _SKIPPED_SUBTREES)


# --------------------------------------------------------------------------------------------
# Safe, bounded archive reading


def _safe_relpath(name: str) -> str:
    """The member name normalised to a relative POSIX path, or ArchiveError when it is unsafe."""
    raw = name.replace("\\", "/")
    if raw.startswith("/") or re.match(r"^[A-Za-z]:", raw):
        raise ArchiveError(f"unsafe member path {name!r} (absolute)")
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise ArchiveError(f"unsafe member path {name!r} (contains '..')")
    return "/".join(parts)


def _read_members(
    entries: Iterable[tuple[str, str, int, Callable[[], Optional[bytes]]]],
    archive: str,
    want: Callable[[str], bool],
    max_member: int,
    max_total: int,
    package: str = "vllm",
) -> DictTree:
    """Common logic for tar and zip. ``entries`` yields (name, kind, declared_size, reader) with
    kind "file", "dir", "link" (symlink/hardlink) or "other"; only wanted regular files are read.

    Paths are made relative to the source root: a wheel holds ``vllm/`` at its root, an sdist or
    a GitHub tarball under one top-level directory (``vllm-0.27.1/``), which is stripped. A
    compressed tar stream cannot be read twice, so the prefix is decided by the first member that
    reveals it; wanted-looking members seen before that are read then and sorted out afterwards.
    """
    files: dict[str, bytes] = {}
    total = 0
    prefix: Optional[str] = None
    tops: set[str] = set()
    early: list[tuple[str, bytes]] = []

    def resolve_prefix(rel: str) -> Optional[str]:
        if rel == package or rel.startswith(package + "/"):
            return ""
        head, _, rest = rel.partition("/")
        if rest == package or rest.startswith(package + "/"):
            return head + "/"
        return None

    def load(path: str, size: int, reader: Callable[[], Optional[bytes]]) -> Optional[bytes]:
        nonlocal total
        if size > max_member:
            raise ArchiveError(f"{archive}: member {path} is {size} bytes (limit {max_member})")
        data = reader()
        if data is None:
            return None
        if len(data) > max_member:
            raise ArchiveError(f"{archive}: member {path} exceeds {max_member} bytes")
        total += len(data)
        if total > max_total:
            raise ArchiveError(f"{archive}: members to read exceed {max_total} bytes")
        return data

    for name, kind, size, reader in entries:
        rel = _safe_relpath(name)
        if not rel:
            continue
        tops.add(rel.split("/", 1)[0])
        if prefix is None:
            prefix = resolve_prefix(rel)
            if prefix is None:
                if kind == "file":
                    stripped = rel.partition("/")[2]
                    if want(rel) or (stripped and want(stripped)):
                        data = load(rel, size, reader)
                        if data is not None:
                            early.append((rel, data))
                continue
            for erel, data in early:
                if erel.startswith(prefix) and want(erel[len(prefix):]):
                    files[erel[len(prefix):]] = data
            early.clear()
        if prefix and not rel.startswith(prefix):
            continue
        path = rel[len(prefix):]
        if kind != "file" or not want(path):
            continue
        data = load(path, size, reader)
        if data is not None:
            files[path] = data

    if prefix is None:
        raise ArchiveError(
            f"{archive}: unexpected layout (no {package}/ package at the root or under one top-level "
            f"directory; top level: {', '.join(sorted(tops)[:5]) or 'empty'})"
        )
    if prefix and len(tops) > 1:
        raise ArchiveError(f"{archive}: unexpected layout (several top-level entries: {', '.join(sorted(tops)[:5])})")
    if not any(p.startswith(package + "/") for p in files):
        raise ArchiveError(f"{archive}: no {package}/*.py sources found")
    return DictTree(files)


class _NotPlain(Exception):
    """The fast tar reader met something it leaves to ``tarfile`` (which then reads the archive
    from its start and decides)."""


_TAR_BLOCK = 512
_TAR_NUMERIC = ((100, 108), (108, 116), (116, 124), (136, 148), (329, 337), (337, 345))  # size: 124-136
_PAX_RECORD = re.compile(rb"(\d+) ([^=]+)=")


def _tar_octal(field: bytes) -> int:
    """``tarfile.nti`` for a plain octal field (a base-256 one is left to tarfile)."""
    if field[:1] in (b"\x80", b"\xff"):
        raise _NotPlain("base-256 number")
    end = field.find(b"\0")
    if end >= 0:
        field = field[:end]
    try:
        return int(field.strip() or b"0", 8)
    except ValueError:
        raise _NotPlain("not an octal number") from None


def _plain_tar_entries(gz: "_BoundedGunzip", max_member: int
                       ) -> Iterator[tuple[str, str, int, Callable[[], Optional[bytes]]]]:
    """The members of a plain tar stream as ``_read_members`` takes them, read the way ``tarfile``
    reads them (3.8-3.13: ustar headers, checksums, pax extended headers with ``path``, ``size``
    and ``linkpath``, a global header of other keys, ``prefix`` joined, a directory's trailing
    slash), at a fraction of its cost per header: an sdist has ~10,000 members, ~2,000 of them read.
    Anything else (GNU long names and sparse files, base-256 numbers, ``hdrcharset``, an odd type, a
    bad checksum, a truncated or odd ending) raises :class:`_NotPlain`, and the caller hands the
    archive to ``tarfile`` from its start, so what is read is always what ``tarfile`` reads."""
    enc, errors = tarfile.ENCODING, "surrogateescape"
    offset = 0
    while True:
        gz.seek(offset)
        buf = gz.read(_TAR_BLOCK)
        if len(buf) != _TAR_BLOCK:
            raise _NotPlain("truncated header")
        if buf.count(0) == _TAR_BLOCK:
            if offset == 0:
                raise _NotPlain("empty archive")
            return  # the end-of-archive block
        pax: dict[str, str] = {}
        extended = False
        while True:
            chk = _tar_octal(buf[148:156])
            if chk != 256 + sum(buf) - sum(buf[148:156]):
                raise _NotPlain("checksum")
            size = _tar_octal(buf[124:136])
            for a, b in _TAR_NUMERIC:
                _tar_octal(buf[a:b])
            kind_flag = buf[156:157]
            if kind_flag not in (b"x", b"g"):
                break
            data = gz.read(-(-size // _TAR_BLOCK) * _TAR_BLOCK)
            if len(data) < size:
                raise _NotPlain("truncated pax header")
            records = _pax_records(data)
            if kind_flag == b"g":
                if pax or any(k in ("path", "size", "linkpath", "hdrcharset") or k.startswith("GNU.")
                              for k in records):
                    raise _NotPlain("global header with member fields")
            elif extended or any(k not in ("path", "size", "linkpath", "mtime", "atime", "ctime", "uid", "gid",
                                           "uname", "gname", "comment") for k in records):
                raise _NotPlain("pax keys, or two extended headers")
            else:
                pax.update(records)
                extended = True
            offset = gz.tell()
            buf = gz.read(_TAR_BLOCK)
            if len(buf) != _TAR_BLOCK or buf.count(0) == _TAR_BLOCK:
                raise _NotPlain("missing header after a pax header")
        end = buf.find(b"\0", 0, 100)
        name = buf[0:end if end >= 0 else 100].decode(enc, errors)
        end = buf.find(b"\0", 345, 500)
        prefix = buf[345:end if end >= 0 else 500].decode(enc, errors)
        if kind_flag == b"\0" and name.endswith("/"):
            kind_flag = b"5"
        if kind_flag == b"5":
            name = name.rstrip("/")
        if prefix:
            name = prefix + "/" + name
        if "path" in pax:
            name = pax["path"].rstrip("/")
        if "size" in pax:
            try:
                size = int(pax["size"])
            except ValueError:
                raise _NotPlain("pax size") from None
        data_at = offset + _TAR_BLOCK
        if kind_flag in (b"0", b"\0"):
            kind = "file"
            offset = data_at + -(-size // _TAR_BLOCK) * _TAR_BLOCK
        elif kind_flag in (b"1", b"2", b"3", b"4", b"5", b"6"):
            # tarfile skips no data after these (their size is 0 in any sane archive)
            kind = {b"5": "dir", b"1": "link", b"2": "link"}.get(kind_flag, "other")
            offset = data_at
        else:
            raise _NotPlain("member type")

        def reader(at: int = data_at, n: int = min(size, max_member + 1)) -> Optional[bytes]:
            gz.seek(at)
            data = gz.read(n)
            if len(data) != n:
                raise _NotPlain("truncated member")
            return data

        yield name, kind, size, reader


def _pax_records(buf: bytes) -> dict[str, str]:
    """A pax header's records, as ``tarfile`` parses them (UTF-8 keys and values)."""
    out: dict[str, str] = {}
    pos = 0
    while True:
        m = _PAX_RECORD.match(buf, pos)
        if not m:
            return out
        length = int(m.group(1))
        if length == 0:
            raise _NotPlain("pax record")
        value = buf[m.end(2) + 1:m.start(1) + length - 1]
        try:
            out[m.group(2).decode("utf-8")] = value.decode("utf-8")
        except UnicodeDecodeError:
            raise _NotPlain("pax text") from None
        pos += length


def read_tar(
    data_or_path: Any,
    archive: str = "archive",
    want: Callable[[str], bool] = wanted,
    max_member: int = MAX_MEMBER_BYTES,
    max_total: int = MAX_TOTAL_BYTES,
    max_inflated: Optional[int] = None,
    package: str = "vllm",
) -> DictTree:
    """Read the wanted members of a (compressed) tar archive into a DictTree.

    The archive is read as a stream, never inflated as a whole: a gzip archive through
    :class:`_BoundedGunzip`, which stops at ``max_inflated`` bytes (default
    :data:`MAX_INFLATED_BYTES`) however small the archive; every member's limit applies while
    it is read. Memory stays at the wanted members plus one buffer."""
    cap = MAX_INFLATED_BYTES if max_inflated is None else max_inflated
    try:
        if isinstance(data_or_path, (bytes, bytearray)):
            fh: Any = io.BytesIO(bytes(data_or_path))
        elif hasattr(data_or_path, "read"):
            fh = _Unclosed(data_or_path)  # an open file of the caller's, at its start
        else:
            fh = open(os.fspath(data_or_path), "rb")
    except OSError as e:
        raise ArchiveError(f"{archive}: not a readable tar archive ({e})") from None
    with fh:
        head = fh.read(2)
        fh.seek(0)
        if head == b"\x1f\x8b":
            try:
                return _read_members(_plain_tar_entries(_BoundedGunzip(fh, cap, archive), max_member), archive,
                                     want, max_member, max_total, package)
            except (_NotPlain, EOFError, OSError, zlib_error()):
                fh.seek(0)  # tarfile reads it from the start and decides (and words any error)
        try:
            if head == b"\x1f\x8b":
                tf = tarfile.open(fileobj=_BoundedGunzip(fh, cap, archive), mode="r|")
            else:
                tf = tarfile.open(fileobj=_BoundedRaw(fh, cap, archive), mode="r|*")
        except (tarfile.TarError, OSError, EOFError, zlib_error()) as e:
            raise ArchiveError(f"{archive}: not a readable tar archive ({e})") from None

        def entries() -> Iterator[tuple[str, str, int, Callable[[], Optional[bytes]]]]:
            for m in tf:
                if m.isreg():
                    kind = "file"
                elif m.isdir():
                    kind = "dir"
                elif m.issym() or m.islnk():
                    kind = "link"
                else:
                    kind = "other"

                def reader(m: tarfile.TarInfo = m) -> Optional[bytes]:
                    f = tf.extractfile(m)  # in stream mode: only the current member, read once
                    if f is None:
                        return None
                    return f.read(max_member + 1)

                yield m.name, kind, m.size, reader

        try:
            with tf:
                return _read_members(entries(), archive, want, max_member, max_total, package)
        except (tarfile.TarError, EOFError, OSError, zlib_error()) as e:
            raise ArchiveError(f"{archive}: corrupt tar archive ({e})") from None


class _Unclosed:
    """A caller's open binary file, usable in ``with`` without closing it."""

    def __init__(self, fh: Any) -> None:
        self.fh = fh

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        pass

    def read(self, n: int = -1) -> bytes:
        return self.fh.read(n)

    def seek(self, pos: int, whence: int = 0) -> int:
        return self.fh.seek(pos, whence)


#: Largest inflated size of a tar archive (vLLM 0.34.0's sdist inflates to ~170 MB); reading
#: stops there, so a small archive that inflates without end costs time up to it, never memory.
MAX_INFLATED_BYTES = 1536 * 1024 * 1024


class _BoundedGunzip(io.RawIOBase):
    """A read-only stream of a gzip file's inflated bytes (concatenated members included) that
    raises :class:`ArchiveError` once more than ``cap`` bytes came out."""

    CHUNK = 1 << 20

    def __init__(self, raw: Any, cap: int, archive: str) -> None:
        import zlib

        self._zlib = zlib
        self.raw = raw
        self.cap = cap
        self.archive = archive
        self.out = 0
        self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._buf = bytearray()
        self._pending = b""  # compressed input not yet given to the decompressor
        self._eof = False
        self._pos = 0  # inflated bytes consumed (read or skipped)

    def readable(self) -> bool:
        return True

    def _fill(self, want: int) -> None:
        while len(self._buf) < want and not self._eof:
            if self._d.eof:
                rest = self._d.unused_data or self.raw.read(self.CHUNK)
                if rest[:2] != b"\x1f\x8b":  # no further gzip member (or padding): the end
                    self._eof = True
                    break
                self._d = self._zlib.decompressobj(16 + self._zlib.MAX_WBITS)  # concatenated members
                self._pending = rest
                continue
            data = self._pending or self.raw.read(self.CHUNK)
            if not data:
                raise ArchiveError(f"{self.archive}: truncated gzip stream")
            chunk = self._d.decompress(data, max(want - len(self._buf), self.CHUNK))
            self._pending = self._d.unconsumed_tail
            self.out += len(chunk)
            if self.out > self.cap:
                raise ArchiveError(f"{self.archive}: inflates to more than {self.cap} bytes")
            self._buf += chunk

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0:
            chunks = []
            while True:
                part = self.read(self.CHUNK)
                if not part:
                    return b"".join(chunks)
                chunks.append(part)
        self._fill(n)
        data = bytes(self._buf[:n])
        del self._buf[:n]  # from the front: O(1) for a bytearray
        self._pos += len(data)
        return data

    def readinto(self, b: Any) -> int:
        data = self.read(len(b))
        b[:len(data)] = data
        return len(data)

    # Forward seeks only (``_plain_tar_entries`` walks the members once): skipped bytes are
    # inflated and dropped a chunk at a time, never held.
    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, pos: int, whence: int = 0) -> int:
        if whence == io.SEEK_CUR:
            pos += self._pos
        elif whence != io.SEEK_SET:
            raise io.UnsupportedOperation("a gzip stream seeks forward from its start only")
        if pos < self._pos:
            raise io.UnsupportedOperation("a gzip stream cannot seek backwards")
        skip = pos - self._pos
        while skip:
            if not self._buf:
                self._fill(min(skip, self.CHUNK))
                if not self._buf:
                    break  # the end: the next read returns short, which tarfile reports
            k = min(skip, len(self._buf))
            del self._buf[:k]
            self._pos += k
            skip -= k
        return self._pos


class _BoundedRaw(io.RawIOBase):
    """A read-only stream over ``raw`` that raises :class:`ArchiveError` past ``cap`` bytes (an
    uncompressed tar, or one tarfile decompresses itself: the cap is then on compressed bytes
    and the member limits bound what is kept)."""

    def __init__(self, raw: Any, cap: int, archive: str) -> None:
        self.raw = raw
        self.cap = cap
        self.archive = archive
        self.out = 0

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        data = self.raw.read(n)
        self.out += len(data)
        if self.out > self.cap:
            raise ArchiveError(f"{self.archive}: larger than {self.cap} bytes")
        return data

    def readinto(self, b: Any) -> int:
        data = self.read(len(b))
        b[:len(data)] = data
        return len(data)


def zlib_error() -> type[BaseException]:
    import zlib

    return zlib.error


def read_zip(
    data_or_path: bytes | str | os.PathLike,
    archive: str = "archive",
    want: Callable[[str], bool] = wanted,
    max_member: int = MAX_MEMBER_BYTES,
    max_total: int = MAX_TOTAL_BYTES,
    package: str = "vllm",
) -> DictTree:
    """Read the wanted members of a zip (wheel) into a DictTree. Symlinks stored in zips (Unix
    mode S_IFLNK in external_attr) are skipped."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data_or_path) if isinstance(data_or_path, (bytes, bytearray))
                             else os.fspath(data_or_path))
    except (zipfile.BadZipFile, OSError) as e:
        raise ArchiveError(f"{archive}: not a readable zip archive ({e})") from None

    def entries() -> Iterator[tuple[str, str, int, Callable[[], Optional[bytes]]]]:
        for info in zf.infolist():
            mode = (info.external_attr >> 16) & 0o170000
            if info.is_dir():
                kind = "dir"
            elif mode == 0o120000:
                kind = "link"
            elif mode in (0, 0o100000):
                kind = "file"
            else:
                kind = "other"

            def reader(info: zipfile.ZipInfo = info) -> Optional[bytes]:
                with zf.open(info) as f:
                    return f.read(max_member + 1)

            yield info.filename, kind, info.file_size, reader

    try:
        with zf:
            return _read_members(entries(), archive, want, max_member, max_total, package)
    except (zipfile.BadZipFile, OSError, EOFError, zlib_error()) as e:
        raise ArchiveError(f"{archive}: corrupt zip archive ({e})") from None


def read_archive(path: str | os.PathLike, archive: Optional[str] = None, **kw: Any) -> DictTree:
    name = archive or os.path.basename(os.fspath(path))
    if name.endswith((".whl", ".zip")):
        return read_zip(path, name, **kw)
    return read_tar(path, name, **kw)


# --------------------------------------------------------------------------------------------
# HTTP with retries


def _one_line(text: str) -> str:
    return " ".join(str(text).split())[:300]


class Http:
    """A small wrapper over ``requests.Session``: timeouts, retries with exponential backoff on
    connection errors, timeouts, 429 and 5xx; 404 becomes :class:`NotFoundError`; everything
    else that fails becomes :class:`NetworkError` with a one-line message."""

    RETRY_STATUS = {429, 500, 502, 503, 504}

    def __init__(
        self,
        session: Any = None,
        retries: int = 4,
        backoff: float = 1.0,
        timeout: tuple[float, float] = (10.0, 60.0),
        sleep: Callable[[float], None] = time.sleep,
        headers: Optional[dict[str, str]] = None,
    ):
        self._session = session
        self.retries = retries
        self.backoff = backoff
        self.timeout = timeout
        self.sleep = sleep
        self.headers = dict(headers or {})

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_session"] = None
        if state.get("sleep") is not time.sleep:
            state["sleep"] = time.sleep
        return state

    @property
    def session(self) -> Any:
        if self._session is None:
            import requests

            s = requests.Session()
            s.headers["User-Agent"] = USER_AGENT
            self._session = s
        return self._session

    def get(self, url: str, stream: bool = False, headers: Optional[dict[str, str]] = None) -> Any:
        import requests

        hdrs = {**self.headers, **(headers or {})}
        last = ""
        for attempt in range(self.retries + 1):
            delay = self.backoff * (2 ** attempt)
            try:
                resp = self.session.get(url, timeout=self.timeout, stream=stream, headers=hdrs or None)
            except (requests.ConnectionError, requests.Timeout) as e:
                kind = "timed out" if isinstance(e, requests.Timeout) else "connection failed"
                last = f"{kind} ({_short_exc(e)})"
            except requests.RequestException as e:
                raise NetworkError(f"cannot fetch {url}: {_short_exc(e)}") from None
            else:
                status = resp.status_code
                if status == 404:
                    resp.close()
                    raise NotFoundError(f"not found (HTTP 404): {url}")
                if status in self.RETRY_STATUS:
                    last = f"HTTP {status}"
                    retry_after = resp.headers.get("Retry-After") if resp.headers else None
                    resp.close()
                    if retry_after and retry_after.isdigit():
                        delay = min(max(delay, float(retry_after)), 60.0)
                elif status >= 400:
                    resp.close()
                    raise NetworkError(f"cannot fetch {url}: HTTP {status}")
                else:
                    return resp
            if attempt < self.retries:
                self.sleep(delay)
        raise NetworkError(
            f"cannot reach {url} after {self.retries + 1} attempts: {last}"
            + (" (offline? set up network access or use --source git)" if "connection" in last or "timed out" in last else "")
        )


def _short_exc(e: BaseException) -> str:
    """requests' exception strings nest urllib3 reprs; keep the innermost reason, one line."""
    text = _one_line(str(e))
    m = re.search(r"(Failed to resolve[^(]*|Name or service not known|Temporary failure in name resolution|"
                  r"Connection refused|Network is unreachable|timed out|Read timed out)", text)
    return m.group(1).strip(" '\":") if m else text[:160]


# --------------------------------------------------------------------------------------------
# Sources


def _parse_release(v: str) -> Optional[Version]:
    try:
        ver = Version(v)
    except InvalidVersion:
        return None
    if ver.is_prerelease or ver.is_devrelease:
        return None
    return ver


def default_cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("vllm-lint"))


class PyPISource:
    """Release archives from the PyPI JSON API, cached under ``<cache>/archives/``."""

    kind = "pypi"

    def __init__(
        self,
        url: str = PYPI_JSON_URL,
        cache_dir: Optional[os.PathLike | str] = None,
        http: Optional[Http] = None,
        offline_index: bool = True,
    ):
        self.url = url
        self.cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        self.http = http or Http()
        self.offline_index = offline_index
        self._releases: Optional[dict[str, list[dict[str, Any]]]] = None
        self.notes: list[str] = []

    # -- index ---------------------------------------------------------------------------
    def _index_cache(self) -> Path:
        if self.url == PYPI_JSON_URL:
            return self.cache_dir / "pypi-vllm.json"
        # another index (a mirror) has its own copy: one index's answer never stands in for another's
        return self.cache_dir / f"pypi-vllm-{hashlib.sha256(self.url.encode()).hexdigest()[:12]}.json"

    def releases(self) -> dict[str, list[dict[str, Any]]]:
        if self._releases is None:
            import json

            try:
                resp = self.http.get(self.url)
                try:
                    doc = resp.json()
                except ValueError:
                    raise SourceError(f"{self.url}: answer is not JSON") from None
                self._write_cache(self._index_cache(), json.dumps(doc).encode())
            except NetworkError as e:
                cached = self._index_cache()
                if not (self.offline_index and cached.is_file()):
                    raise
                doc = json.loads(cached.read_bytes())
                self.notes.append(f"PyPI unreachable ({e}); using the cached index {cached}")
            rel = doc.get("releases") if isinstance(doc, dict) else None
            if not isinstance(rel, dict):
                raise SourceError(f"{self.url}: no 'releases' in the answer")
            self._releases = rel
        return self._releases

    def versions(self) -> list[str]:
        out = []
        for v, files in self.releases().items():
            ver = _parse_release(v)
            if ver is not None and self._pick(files) is not None:
                out.append((ver, v))
        return [v for _, v in sorted(out)]

    @staticmethod
    def _pick(files: list[dict[str, Any]]) -> Optional[dict[str, Any]]:
        """The sdist, else the best wheel: x86_64 first, then CPython 3.11, then by name
        (matches what the prefetch cached)."""
        sdists = [f for f in files if f.get("packagetype") == "sdist" and f.get("filename", "").endswith((".tar.gz", ".tgz", ".zip"))]
        if sdists:
            return sorted(sdists, key=lambda f: f["filename"])[0]
        wheels = [f for f in files if f.get("filename", "").endswith(".whl")]
        if not wheels:
            return None

        def rank(f: dict[str, Any]) -> tuple[bool, bool, str]:
            n = f["filename"]
            return ("x86_64" not in n, "cp311" not in n, n)

        return sorted(wheels, key=rank)[0]

    def file_for(self, version: str) -> dict[str, Any]:
        files = self.releases().get(version)
        if files is None:
            raise NotFoundError(f"vllm {version} is not on PyPI ({self.url})")
        f = self._pick(files)
        if f is None:
            raise NotFoundError(f"vllm {version} has no sdist or wheel on PyPI")
        return f

    # -- download ------------------------------------------------------------------------
    @staticmethod
    def _write_cache(path: Path, data: bytes) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except OSError:
            pass  # the cache is an optimisation

    @staticmethod
    def _sha256_file(path: Path) -> str:
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        return h.hexdigest()

    def download(self, version: str) -> tuple[Path, dict[str, Any]]:
        """The cached archive for ``version`` (downloaded if absent or stale) and its file entry."""
        f = self.file_for(version)
        filename = f["filename"]
        if "/" in filename or "\\" in filename or filename.startswith("."):
            raise ArchiveError(f"refusing suspicious archive name {filename!r}")
        expected = (f.get("digests") or {}).get("sha256")
        if not expected:
            raise IntegrityError(f"{filename}: PyPI publishes no sha256 digest")
        dest = self.cache_dir / "archives" / filename
        if dest.is_file() and self._sha256_file(dest) == expected:
            self._say(f"{version}: using the cached {filename}")
            return dest, f
        size = f.get("size")
        self._say(f"{version}: downloading {filename}" + (f" ({size / 1e6:.0f} MB)" if isinstance(size, int) else ""))
        url = urllib.parse.urljoin(self.url, f["url"])
        dest.parent.mkdir(parents=True, exist_ok=True)
        resp = self.http.get(url, stream=True)
        fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=filename + ".", suffix=".part")
        h = hashlib.sha256()
        declared = size if isinstance(size, int) and not isinstance(size, bool) and size >= 0 else None
        cap = MAX_DOWNLOAD_BYTES if declared is None else declared
        received = 0
        try:
            with os.fdopen(fd, "wb") as fh:
                try:
                    for chunk in resp.iter_content(chunk_size=1 << 20):
                        if chunk:
                            received += len(chunk)
                            if received > cap:
                                raise IntegrityError(
                                    f"{filename}: larger than the {cap} bytes "
                                    + ("the index declares" if declared is not None else "a release archive may be")
                                    + "; download stopped, file discarded")
                            h.update(chunk)
                            fh.write(chunk)
                except IntegrityError:
                    raise
                except Exception as e:  # connection dropped mid-body
                    raise NetworkError(f"download of {filename} interrupted: {_short_exc(e)}") from None
            if declared is not None and received != declared:
                raise IntegrityError(f"{filename}: {received} bytes, the index declares {declared}; file discarded")
            got = h.hexdigest()
            if got != expected:
                raise IntegrityError(f"{filename}: sha256 mismatch (expected {expected[:16]}..., got {got[:16]}...); file discarded")
            os.replace(tmp, dest)
        finally:
            resp.close()
            if os.path.exists(tmp):
                os.unlink(tmp)
        return dest, f

    def _say(self, message: str) -> None:
        """A progress line on stderr (``db build`` / ``db update`` turn it on: ``report = True``)."""
        if getattr(self, "report", False):
            sys.stderr.write(f"  {message}\n")
            sys.stderr.flush()

    def fetch(self, version: str) -> tuple[DictTree, dict[str, Any]]:
        path, f = self.download(version)
        self._say(f"{version}: extracting {f['filename']}")
        tree = read_archive(path, f["filename"])
        kind = "sdist" if f.get("packagetype") == "sdist" else "wheel"
        return tree, {"kind": kind, "archive": f["filename"], "sha256": f["digests"]["sha256"]}


def _tag_version(tag: str) -> Optional[str]:
    """``v0.8.5`` -> ``0.8.5``; None for tags that are not final/post releases."""
    t = tag[1:] if tag.startswith("v") else tag
    ver = _parse_release(t)
    if ver is None or not re.fullmatch(r"[0-9][0-9.]*(\.post[0-9]+)?", t):
        return None
    return t


class _TagSource:
    """A source whose releases are the repository's release tags (``v0.8.5`` or ``0.8.5``)."""

    repo: str
    _tags: Optional[dict[str, str]] = None

    def _tag_names(self) -> Iterable[str]:
        raise NotImplementedError

    def tags(self) -> dict[str, str]:
        """version -> tag name; ``v``-prefixed tags win when both spellings exist."""
        if self._tags is None:
            tags: dict[str, str] = {}
            for name in self._tag_names():
                v = _tag_version(name)
                if v is not None and (v not in tags or name.startswith("v")):
                    tags[v] = name
            self._tags = tags
        return self._tags

    def versions(self) -> list[str]:
        return sorted(self.tags(), key=Version)

    def _tag_for(self, version: str) -> str:
        tag = self.tags().get(version)
        if tag is None:
            raise NotFoundError(f"no tag for vllm {version} in {self.repo}")
        return tag


class GitHubSource(_TagSource):
    """Tags of a GitHub repository, read from the tag's tarball (honours ``GITHUB_TOKEN``)."""

    kind = "github"

    def __init__(self, repo: str = GITHUB_REPO, http: Optional[Http] = None, api: str = GITHUB_API,
                 token: Optional[str] = None):
        self.repo = repo
        self.api = api.rstrip("/")
        token = token if token is not None else os.environ.get("GITHUB_TOKEN")
        headers = {"Accept": "application/vnd.github+json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.http = http or Http()
        self.http.headers.update(headers)

    def _tag_names(self) -> Iterable[str]:
        url: Optional[str] = f"{self.api}/repos/{self.repo}/tags?per_page=100"
        pages = 0
        while url and pages < 50:
            resp = self.http.get(url)
            try:
                items = resp.json()
            except ValueError:
                raise SourceError(f"{url}: answer is not JSON") from None
            if not isinstance(items, list):
                raise SourceError(f"{url}: unexpected answer")
            for item in items:
                yield item.get("name", "") if isinstance(item, dict) else ""
            url = (getattr(resp, "links", None) or {}).get("next", {}).get("url")
            pages += 1

    def fetch(self, version: str) -> tuple[DictTree, dict[str, Any]]:
        tag = self._tag_for(version)
        url = f"{self.api}/repos/{self.repo}/tarball/{urllib.parse.quote(tag)}"
        resp = self.http.get(url, stream=True)
        # spooled to a temporary file, never held whole in memory, then read as a stream
        with tempfile.TemporaryFile() as buf:
            try:
                size = 0
                for chunk in resp.iter_content(chunk_size=1 << 20):
                    size += len(chunk)
                    if size > MAX_DOWNLOAD_BYTES:
                        raise ArchiveError(f"{url}: tarball larger than {MAX_DOWNLOAD_BYTES} bytes")
                    buf.write(chunk)
            finally:
                resp.close()
            buf.seek(0)
            tree = read_tar(buf, f"{self.repo}@{tag}")
        return tree, {"kind": "github", "repo": self.repo, "ref": tag}


class GitTree:
    """A SourceTree over one ref of a local git repository (``git show`` / ``git ls-tree``)."""

    def __init__(self, repo: str | os.PathLike, ref: str):
        self.repo = os.fspath(repo)
        self.ref = ref
        self._blobs: Optional[dict[str, int]] = None
        self._cache: dict[str, Optional[bytes]] = {}

    def _git(self, *args: str) -> bytes:
        return _run_git(self.repo, *args)

    def _listing(self) -> dict[str, int]:
        """path -> size of every regular blob at the ref (symlinks and submodules excluded)."""
        if self._blobs is None:
            out = self._git("ls-tree", "-r", "-z", "--long", "--full-tree", self.ref)
            blobs: dict[str, int] = {}
            for rec in out.split(b"\0"):
                if not rec:
                    continue
                meta, _, path = rec.partition(b"\t")
                fields = meta.split()
                if len(fields) < 4 or fields[1] != b"blob" or fields[0] not in (b"100644", b"100755"):
                    continue
                try:
                    blobs[path.decode("utf-8")] = int(fields[3])
                except (ValueError, UnicodeDecodeError):
                    continue
            self._blobs = blobs
        return self._blobs

    def read(self, path: str) -> Optional[bytes]:
        if path in self._cache:
            return self._cache[path]
        size = self._listing().get(path)
        data: Optional[bytes] = None
        if size is not None:
            if size > MAX_MEMBER_BYTES:
                raise ArchiveError(f"{self.ref}:{path} is {size} bytes (limit {MAX_MEMBER_BYTES})")
            data = self._git("show", f"{self.ref}:{path}")
        self._cache[path] = data
        return data

    def listdir(self, directory: str) -> list[str]:
        prefix = directory.rstrip("/") + "/"
        return sorted(p for p in self._listing() if p.startswith(prefix) and "/" not in p[len(prefix):])

    def paths(self) -> list[str]:
        return sorted(self._listing())


def _run_git(repo: str, *args: str) -> bytes:
    try:
        proc = subprocess.run(["git", "-C", repo, *args], capture_output=True, timeout=120)
    except FileNotFoundError:
        raise SourceError("git is not installed") from None
    except subprocess.TimeoutExpired:
        raise SourceError(f"git {args[0]} timed out in {repo}") from None
    if proc.returncode != 0:
        msg = _one_line(proc.stderr.decode("utf-8", "replace")) or f"exit {proc.returncode}"
        raise SourceError(f"git {args[0]} failed in {repo}: {msg}")
    return proc.stdout


class GitSource(_TagSource):
    """Release tags of a local vLLM checkout."""

    kind = "git"

    def __init__(self, repo: str | os.PathLike):
        self.repo = os.fspath(repo)
        if not os.path.isdir(self.repo):
            raise SourceError(f"{self.repo}: not a directory")

    def _tag_names(self) -> Iterable[str]:
        return _run_git(self.repo, "tag", "--list").decode("utf-8", "replace").split()

    def fetch(self, version: str) -> tuple[GitTree, dict[str, Any]]:
        tag = self._tag_for(version)
        return GitTree(self.repo, tag), {"kind": "git", "ref": tag}


def read_directory(root: str | os.PathLike, want: Callable[[str], bool] = wanted,
                   max_member: int = MAX_MEMBER_BYTES, max_total: int = MAX_TOTAL_BYTES) -> DictTree:
    """The wanted files of an unpacked source tree (a vLLM checkout's working tree, an unpacked
    sdist) into a DictTree, with the archive limits. Symlinks are never followed; ``vllm/`` must be
    at the root."""
    base = Path(root)
    if not (base / "vllm").is_dir() or (base / "vllm").is_symlink():
        raise ArchiveError(f"{base}: no vllm/ package at its root (a vLLM checkout or an unpacked sdist)")
    files: dict[str, bytes] = {}
    total = 0
    for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
        rel_dir = Path(dirpath).relative_to(base).as_posix()
        dirnames[:] = sorted(d for d in dirnames if d not in (".git", "__pycache__", "node_modules")
                             and not os.path.islink(os.path.join(dirpath, d)))
        for name in sorted(filenames):
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            full = os.path.join(dirpath, name)
            if os.path.islink(full) or not os.path.isfile(full) or not want(rel):
                continue
            size = os.path.getsize(full)
            if size > max_member:
                raise ArchiveError(f"{base}: {rel} is {size} bytes (limit {max_member})")
            total += size
            if total > max_total:
                raise ArchiveError(f"{base}: files to read exceed {max_total} bytes")
            with open(full, "rb") as fh:
                files[rel] = fh.read(max_member + 1)
    if not any(p.startswith("vllm/") for p in files):
        raise ArchiveError(f"{base}: no vllm/*.py sources found")
    return DictTree(files)


class TreeSource:
    """One source tree named by the user as a release (``db add``): a local vLLM checkout at a git
    ref, or a directory (a working tree, an unpacked sdist) as it is on disk."""

    kind = "tree"

    def __init__(self, path: str | os.PathLike, name: str, ref: Optional[str] = None):
        self.path = os.fspath(path)
        self.name = name
        self.ref = ref
        if not os.path.isdir(self.path):
            raise SourceError(f"{self.path}: not a directory")

    def versions(self) -> list[str]:
        return [self.name]

    def fetch(self, version: str) -> tuple[Any, dict[str, Any]]:
        if version != self.name:
            raise NotFoundError(f"{self.path} is added as {self.name}, not {version}")
        if self.ref is not None:
            _run_git(self.path, "rev-parse", "--verify", f"{self.ref}^{{commit}}")  # a one-line error if unknown
            return GitTree(self.path, self.ref), {"kind": "git", "ref": self.ref}
        return read_directory(self.path), {"kind": "tree"}


def make_source(kind: str, repo: Optional[str] = None, **kw: Any) -> Any:
    if kind == "pypi":
        return PyPISource(**kw)
    if kind == "github":
        return GitHubSource(repo=repo or GITHUB_REPO, **kw)
    if kind == "git":
        if not repo:
            raise SourceError("--source git needs --repo PATH (a local vLLM checkout)")
        return GitSource(repo)
    raise SourceError(f"unknown source {kind!r} (pypi, github or git)")
