"""Applying fixes: byte edits (checked not to overlap), the choice of a pass's edits, atomic
writes.

The fixer knows byte edits and nothing about rules or formats. The fix loop (apply, re-analyse,
repeat, bounded) is the engine's (``Linter.fix_loop``, as ruff's linter owns its loop); it asks
the format's parse check (``Format.parse_check``) before a pass is kept, so a fix that would
break the file is not written, and the finding says why.
"""

from __future__ import annotations

import os
import stat
from bisect import bisect_left, bisect_right
from pathlib import Path
from typing import Optional

from ..launch import Edit
from ..rules.base import Diagnostic


class FixConflict(Exception):
    pass


def apply_edits(data: bytes, edits: list[Edit]) -> bytes:
    """Apply non-overlapping edits (checked) to ``data``."""
    ordered = sorted(edits, key=lambda e: (e.span.start, e.span.end))
    out = []
    pos = 0
    for e in ordered:
        if e.span.start < pos or e.span.end > len(data):
            raise FixConflict(f"overlapping or out-of-range edit at {e.span}")
        out.append(data[pos:e.span.start])
        out.append(e.content.encode("utf-8"))
        pos = e.span.end
    out.append(data[pos:])
    return b"".join(out)


def select_edits(diags: list[Diagnostic], unsafe: bool) -> tuple[list[Edit], int]:
    """Edits of every applicable fix whose edits do not overlap an earlier chosen fix."""
    chosen: list[Edit] = []
    # the union of the chosen edits' closed spans, as disjoint sorted blocks: checking a fix costs
    # O(log n), not O(n) (a file with tens of thousands of fixes took minutes)
    starts: list[int] = []
    ends: list[int] = []
    count = 0

    def touches(a: int, b: int) -> bool:
        i = bisect_right(starts, b) - 1
        return i >= 0 and ends[i] >= a

    def take(a: int, b: int) -> None:
        i, j = bisect_left(ends, a), bisect_right(starts, b)
        if i < j:
            a, b = min(a, starts[i]), max(b, ends[j - 1])
        starts[i:j] = [a]
        ends[i:j] = [b]

    for d in sorted(diags, key=lambda d: (d.span.start if d.span else 0, d.code)):
        if not d.fix_applies(unsafe):
            continue
        f = d.fix
        spans = [(e.span.start, e.span.end) for e in f.edits]
        # overlapping or touching edits wait for the next pass: each was computed against the
        # original text around it (a deletion takes the whitespace beside it), so two neighbours
        # applied together can compound; re-linting recomputes the second against the result
        if any(touches(a, b) for a, b in spans):
            continue
        chosen.extend(f.edits)
        for a, b in spans:
            take(a, b)
        count += 1
    return chosen, count


class WriteRefused(Exception):
    """A fixed file that is left as it is, and why (one line: ``str(e)``): a symbolic link, a
    read-only file, a file changed since it was read."""


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def write_atomic(path: Path, data: bytes, expected: Optional[bytes] = None) -> Path:
    """Replace the content of the file at ``path`` atomically (a temporary file beside it, fsynced,
    renamed over it), keeping its mode and owner. Returns ``path``.

    Never writes outside the folder ``path`` names: the folder is opened once and every step goes
    through its descriptor (the temporary file is created exclusively, without following a link,
    under a random name). Refused with :class:`WriteRefused`, the file left as it is: a symbolic
    link (its target may be anywhere; fix the file it points to), no regular file, a read-only
    file (no write permission bit, or not writable by this user), and, with ``expected`` (the
    bytes the fix was made from), a file whose content is no longer those bytes, checked just
    before the rename (someone edited it while the run was under way)."""
    folder, name = os.path.split(os.fspath(path))
    dfd = os.open(folder or ".", os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:
        st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            raise WriteRefused("a symbolic link; not fixed (vllm-lint does not write through links: "
                               "fix the file it points to)")
        if not stat.S_ISREG(st.st_mode):
            raise WriteRefused("not a regular file; not fixed")
        if not st.st_mode & 0o222 or not os.access(name, os.W_OK, dir_fd=dfd, follow_symlinks=False):
            raise WriteRefused("read-only; not fixed")
        tmp = f".{name}.{os.urandom(6).hex()}.vllm-lint.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=dfd)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
                os.chmod(f.fileno(), stat.S_IMODE(st.st_mode))
                try:
                    os.chown(f.fileno(), st.st_uid, st.st_gid)
                except (PermissionError, AttributeError):
                    pass
            if expected is not None and not _unchanged(name, dfd, st, expected):
                raise WriteRefused("changed during the run; not fixed")
            os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=dfd)
            except OSError:
                pass
            raise
    finally:
        os.close(dfd)
    return path


def _unchanged(name: str, dfd: int, before: os.stat_result, expected: bytes) -> bool:
    """Whether the file ``name`` (in the folder ``dfd``) is still the file ``before`` described,
    holding ``expected``: the same file (device, inode), no link, and the same bytes (size first;
    at most one byte more than expected is read)."""
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=dfd)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as f:
        now = os.fstat(fd)
        if (now.st_dev, now.st_ino) != (before.st_dev, before.st_ino) or not stat.S_ISREG(now.st_mode) \
                or now.st_size != len(expected):
            return False
        return f.read(len(expected) + 1) == expected

