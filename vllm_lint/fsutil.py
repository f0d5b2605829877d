"""File-system helpers shared by the engine and the knowledge modules: real paths, reads of regular
files with a bound (nothing a repository holds is read without one), and how a name is shown."""

from __future__ import annotations

import errno
import os

from .record import lazy_re

AnyPath = str | os.PathLike[str]  # a file's path: a string on the lint path, or a path object
# (no string in the union: a forward reference is compiled, and the first compile() of a process
# builds the ast module's node classes, ~10 M instructions; ``|``, not typing's Union: the lint
# path imports no typing)

# What the release choice read while it is being recorded (``watching``; the result cache's survey
# of a run, ``pipeline.cache``): path -> stat signature, the first one seen.
_watch: "dict | None" = None


def watching(into: "dict | None") -> "dict | None":
    """Record the stat signature of every path read by :func:`read_regular` or named to
    :func:`watch` (a folder before it is listed, a folder probed for a name) into ``into``, until
    the next call; None stops. Returns what was recorded into before (to restore)."""
    global _watch
    before, _watch = _watch, into
    return before


def signature(path: str) -> "list[int] | None":
    """``[size, mtime_ns, inode]`` of what ``path`` names now (links followed), None when nothing
    does: a file's or folder's stat signature. A folder's changes when an entry is added, removed or
    renamed, so a listing (and a name looked for and not found) is recorded as its folder's."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def watch(path: AnyPath, exists: bool = False) -> None:
    """Record ``path``'s stat signature now, when recording (:func:`watching`); with ``exists``,
    only whether something is there (True), or None (a ``.git`` looked for: what git writes in it
    does not matter)."""
    if _watch is not None:
        where = os.path.abspath(path)
        if where not in _watch:
            sig = signature(where)
            _watch[where] = True if exists and sig is not None else sig


def real_dir(d: str, memo: dict[str, str]) -> str:
    """``os.path.realpath(d)`` for a directory, remembered in ``memo``. A realpath costs an lstat
    per path component; built from the parent's remembered real path, a directory costs one lstat
    (is it a symbolic link?) the first time it is seen. Strings throughout."""
    got = memo.get(d)
    if got is None:
        head, tail = os.path.split(d)
        if not head or head == d or tail in ("", ".", ".."):
            got = os.path.realpath(d)
        else:
            got = os.path.join(real_dir(head, memo), tail)
            if os.path.islink(got):
                if _watch is not None:  # (a link is retargeted by replacing it: its folder's entries)
                    watch(os.path.dirname(got))
                got = os.path.realpath(got)
        memo[d] = got
    return got


def path_str(p: AnyPath) -> str:
    """``str(pathlib.Path(p))``: the path as pathlib spells it (repeated and trailing separators
    and ``.`` parts dropped, ``//`` kept at the start, ``""`` read as ``.``), without importing
    ``pathlib`` on POSIX (it imports ``urllib.parse`` and ``ipaddress``: ~16 M instructions of a
    one-file lint; benchmarks/README.md, issue 31's sixth pass)."""
    p = os.fspath(p)
    if os.sep != "/" or os.altsep or not isinstance(p, str):
        from pathlib import Path

        return str(Path(p))
    lead = "//" if p.startswith("//") and not p.startswith("///") else "/" if p.startswith("/") else ""
    return (lead + "/".join(x for x in p.split("/") if x and x != ".")) or "."


_PATHLIB_IGNORED = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)  # pathlib's "does not exist"


def path_is(path: AnyPath, test=None) -> bool:
    """``Path(path).exists()`` (``test`` None) or ``.is_file()`` / ``.is_dir()`` (``test``
    ``stat.S_ISREG`` / ``stat.S_ISDIR``), with pathlib's errors: False for a missing path, a
    non-folder on the way, a symbolic link loop or a name the system cannot encode; any other
    error (a folder it may not read) raises as pathlib's does."""
    try:
        st = os.stat(path)
    except OSError as e:
        if e.errno not in _PATHLIB_IGNORED:
            raise
        return False
    except ValueError:
        return False
    return True if test is None else test(st.st_mode)


class NotRegularFile(OSError):
    """A path that names something other than a regular file or a directory (a FIFO, a socket, a
    device): reading it could block for ever (a FIFO) or never end (``/dev/zero``). ``kind`` names it."""

    def __init__(self, path: AnyPath, kind: str) -> None:
        super().__init__(f"not a regular file ({kind})")
        self.path = path
        self.kind = kind


class TooLarge(OSError):
    """A file or stream longer than the limit its reader allows (``size``: the bytes known, at
    least ``limit + 1``)."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"larger than {limit // 1048576} MiB" if limit >= 1048576 else f"larger than {limit} bytes")
        self.size = size
        self.limit = limit


def file_kind(mode: int) -> str:
    """What ``mode`` (an ``st_mode``) names, in words."""
    import stat

    for test, kind in ((stat.S_ISREG, "regular file"), (stat.S_ISDIR, "directory"), (stat.S_ISFIFO, "named pipe"),
                       (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return kind
    return "special file"


_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)


def open_regular(path: AnyPath, known: "os.stat_result | None" = None, pipes: bool = False):
    """``open(path, "rb")`` for a regular file only (with ``pipes``, a pipe too: ``vllm-lint
    <(...)``): a directory raises ``IsADirectoryError`` (as ``open`` does), anything else
    :class:`NotRegularFile`. It never blocks at the open: a FIFO is opened without waiting for a
    writer (``O_NONBLOCK``; without a writer it then reads as empty, never hangs), and with
    ``known`` (a stat of the path already made) a device or socket is refused before it is opened.
    Returns the file, positioned at its start."""
    import stat

    def allowed(mode: int) -> bool:
        return stat.S_ISREG(mode) or (pipes and stat.S_ISFIFO(mode))

    if known is not None and not (allowed(known.st_mode) or stat.S_ISDIR(known.st_mode)):
        raise NotRegularFile(path, file_kind(known.st_mode))
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | _CLOEXEC | _BINARY)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            import errno

            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
        if not allowed(st.st_mode):
            raise NotRegularFile(path, file_kind(st.st_mode))
        if _NONBLOCK and stat.S_ISFIFO(st.st_mode):
            os.set_blocking(fd, True)  # (a writer that is slower than this reader is waited for)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


MAX_FILE_BYTES = 10 * 1024 * 1024  # the most of one file a run reads (larger: a VL001 finding, no parse)


def read_at_most(f, limit: int) -> bytes:
    """The rest of ``f``, at most ``limit`` bytes; :class:`TooLarge` when there is more (a file that
    grew since it was measured, an endless stream): at most ``limit + 1`` bytes are ever read."""
    try:
        size = os.fstat(f.fileno()).st_size - f.tell()
    except (OSError, AttributeError, ValueError):  # (a stream without a file, or one that cannot tell)
        size = 0
    if 0 < size < limit:
        # a file's size as the first read: a read allocates its whole request first, and a
        # 10 MiB buffer for each small file cost three times the rest of reading it
        data = f.read(size + 1)
        if len(data) <= size:
            return data
        data += f.read(limit - size)  # (it grew since: the rest, as one read of limit + 1 would)
    else:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(len(data), limit)
    return data


def read_head(path: AnyPath, limit: int) -> bytes:
    """The first ``limit`` bytes of the regular file at ``path`` (its whole, when smaller): the
    start of a log, whatever its length. Watched as :func:`read_regular`'s files are (its
    signature, for the result cache's survey); anything but a regular file raises."""
    with open_regular(path) as f:
        if _watch is not None:
            st = os.fstat(f.fileno())
            where = os.path.abspath(path)
            if where not in _watch:
                _watch[where] = [st.st_size, st.st_mtime_ns, st.st_ino]
        return f.read(limit)


def read_regular(path: AnyPath, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` (:func:`open_regular`,
    :func:`read_at_most`); a larger file raises :class:`TooLarge` without being read.

    A regular file is read on its descriptor (no file object: a third of the cost of the many
    small files the release finding and the callers' walk read, benchmarks/README.md); anything
    else takes :func:`open_regular`'s way, which raises what it is."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _CLOEXEC | _BINARY)
    except OSError:
        if _watch is not None:
            watch(path)  # (missing: None; made later, it counts)
        raise
    try:
        st = os.fstat(fd)
        if _watch is not None:  # (the signature of the bytes read)
            where = os.path.abspath(path)
            if where not in _watch:
                _watch[where] = [st.st_size, st.st_mtime_ns, st.st_ino]
        if st.st_mode & 0o170000 == 0o100000:  # stat.S_ISREG, without importing stat
            size = st.st_size
            if size > limit:
                raise TooLarge(size, limit)
            data = _read_sized(fd, size, limit)
            if len(data) > limit:
                raise TooLarge(len(data), limit)
            return data
    finally:
        os.close(fd)
    return _read_regular_file(path, limit)


_LISTED_CHUNK = 1 << 16


def read_listed(path: str, limit: int) -> bytes:
    """:func:`read_regular` of a file its folder's listing says is regular (``DirEntry.is_file(
    follow_symlinks=False)``: no link, no FIFO, no device), without its ``fstat``: the first read
    asks for 64 KiB, and a read of a regular file stops short of its request only at the file's
    end; a longer file is read on to ``limit`` (more raises :class:`TooLarge`). A file replaced since
    its listing is still read with a bound and without blocking (``O_NONBLOCK``). The ``fstat`` was
    ~40 % of the instructions of reading a small script (a stat result of ~20 fields): the callers'
    walk reads every script of a repository (benchmarks/README.md, issue 31's ninth pass). While
    signatures are recorded (:func:`watching`), :func:`read_regular`, which records them."""
    if _watch is not None:
        return read_regular(path, limit)
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | _CLOEXEC | _BINARY)
    try:
        data = os.read(fd, _LISTED_CHUNK)
        if len(data) == _LISTED_CHUNK:
            data += _read_fd(fd, limit + 1 - _LISTED_CHUNK) if limit >= _LISTED_CHUNK else b""
    finally:
        os.close(fd)
    if len(data) > limit:
        raise TooLarge(len(data), limit)
    return data


def read_if_regular(path: AnyPath, limit: int, known: "os.stat_result | None" = None):
    """``(bytes, size, stat)`` of ``path`` when it is a regular file, read on its descriptor (one
    open, one ``fstat``: :func:`read_regular`'s way), with ``bytes`` None when the file holds more
    than ``limit`` (``size``: its size, or what was read when it grew); None for anything else
    (not opened when ``known``, a stat of the path already made, says so), which the caller reads
    with :func:`open_regular` to learn what it is. Errors of the open are raised as ``open``'s."""
    if known is not None and known.st_mode & 0o170000 != 0o100000:
        return None
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | _CLOEXEC | _BINARY)
    try:
        st = os.fstat(fd)
        if st.st_mode & 0o170000 != 0o100000:  # stat.S_ISREG, without importing stat
            return None
        size = st.st_size
        if size > limit:
            return None, size, st
        data = _read_sized(fd, size, limit)
        if len(data) > limit:
            return None, len(data), st
        return data, size, st
    finally:
        os.close(fd)


def _read_sized(fd: int, size: int, limit: int) -> bytes:
    """The bytes of the regular file open as ``fd``, whose ``fstat`` size was ``size``, read as
    :func:`read_at_most` reads: the size (+1) first, then on to the limit if it grew since (more
    than ``limit`` bytes: the caller's "too large"). A read of a regular file stops short of its
    request only at the file's end: a first read that gives every byte ``fstat`` counted, and not
    the one more asked for, is the whole file, without a second read to meet the end (one system
    call fewer per file: the callers' walk reads every script of a repository)."""
    if 0 < size < limit:
        data = os.read(fd, size + 1)
        if len(data) == size:
            return data
        if len(data) < size:  # (short of what fstat counted: on to its size + 1, as before)
            data += _read_fd(fd, size + 1 - len(data))
        if len(data) > size:
            data += _read_fd(fd, limit - size)
        return data
    return _read_fd(fd, limit + 1)


def _read_fd(fd: int, n: int) -> bytes:
    """Up to ``n`` bytes of ``fd``, fewer only at its end (as a buffered ``read(n)``)."""
    data = os.read(fd, n)
    if not data or len(data) >= n:
        return data
    parts = [data]
    got = len(data)
    while got < n:
        more = os.read(fd, n - got)
        if not more:
            break
        parts.append(more)
        got += len(more)
    return b"".join(parts)


def _read_regular_file(path: AnyPath, limit: int) -> bytes:
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise TooLarge(size, limit)
        return read_at_most(f, limit)


def replace_file(path: AnyPath, data: bytes, mode: int = 0o644) -> None:
    """Write ``data`` as the file ``path``, created or replaced at once: a temporary file beside it
    under a random name, created exclusively and never through a link (a link planted at a
    guessable temporary name is never written through), then renamed over ``path`` (a link at
    ``path`` is replaced, not followed). For vllm-lint's own files (a baseline); ``mode`` before
    the umask."""
    folder, name = os.path.split(os.fspath(path))
    tmp = os.path.join(folder, f".{name}.{os.urandom(6).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC | _BINARY, mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


_UNSAFE = lazy_re("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m) -> str:
    c = m.group()
    return _NAMED.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")


def visible(s: str, keep: str = "") -> str:
    """``s`` with its control characters escaped as Python writes them (``\\n``, ``\\x1b``,
    ``\\u202e``): C0 and C1 controls, DEL, line and paragraph separators and the bidirectional
    overrides. A file name or a message taken from a file then shows on one line, cannot move the
    cursor or colour a terminal, and cannot start a CI workflow command (``\\n::warning ...``).
    Printable text is returned as it is. The report formats that print names as text, the audit
    and the command's own lines use it; ``keep``: characters left for the caller's own encoding
    (GitHub's ``%0A`` for a line break)."""
    if s.isprintable():  # (the escaped ones are all unprintable)
        return s
    return _UNSAFE.sub(lambda m: m.group() if m.group() in keep else _escape(m), s)


def folders_to_root(folder: str) -> tuple[list[str], bool]:
    """``folder`` and the folders above it up to the nearest one holding ``.git`` (the repository's
    root, included), and whether there was one; without one, every folder up to the file system's
    root (at most 33). Callers bound the walk outside a repository as their reading needs."""
    out, d = [folder], folder
    for _ in range(32):
        if os.path.exists(os.path.join(d, ".git")):
            return out, True
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
        out.append(d)
    return out, False


_SEP = os.sep
_ALTSEP = os.altsep
_PLAIN: dict[str, bool] = {}  # folder -> whether it is absolute and normal (``relative_path``'s memo)


def relative_path(path: str, folder: str) -> str:
    """``os.path.relpath(path, folder)``; for the walks' paths (an absolute, normal folder and the
    names listed below it) the rest of the string after ``folder`` and its separator: a relpath
    makes both paths absolute, normalises and splits them, ~40k instructions per folder walked
    (the callers' walk and the ``.gitignore`` rules ask for each script and folder)."""
    ok = _PLAIN.get(folder)
    if ok is None:
        ok = _PLAIN[folder] = len(folder) > 1 and os.path.isabs(folder) and _normal(folder)
    n = len(folder)
    if ok and path[n:n + 1] == _SEP and path.startswith(folder):
        rest = path[n:]  # (normal: no empty part, no part starting with a dot, no trailing separator)
        if _SEP + "." not in rest and _SEP + _SEP not in rest and not rest.endswith(_SEP):
            return path[n + 1:]
    return os.path.relpath(path, folder)


def _normal(path: str) -> bool:
    """Whether ``path`` is spelt as ``os.path.normpath`` spells it (no empty, ``.`` or ``..`` part, no
    trailing separator), checked on the string (a cheap test: no part is rebuilt)."""
    s = _SEP
    return not (s + s in path or s + "." + s in path or s + ".." + s in path or path.endswith((s, s + ".", s + ".."))
                or (_ALTSEP is not None and _ALTSEP in path))
