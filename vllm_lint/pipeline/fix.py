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
import tempfile
from bisect import bisect_left, bisect_right
from pathlib import Path

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


def write_atomic(path: Path, data: bytes) -> Path:
    """Replace ``path``'s content atomically, keeping its mode. A symlink is followed and its
    target is replaced (the link itself stays a link). Returns the path written."""
    real = Path(os.path.realpath(path))
    st = real.stat()
    fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".vllm-lint.tmp", dir=real.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, stat.S_IMODE(st.st_mode))
        try:
            os.chown(tmp, st.st_uid, st.st_gid)
        except (PermissionError, AttributeError):
            pass
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return real

