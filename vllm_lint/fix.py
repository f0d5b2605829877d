"""Applying fixes: byte edits, a bounded convergence loop, verification, atomic writes.

The fixer knows byte edits and nothing about rules or formats, except that a fixed file must
still parse in its format (``verify``): a fix that would break the file is not written, and the
finding says why.
"""

from __future__ import annotations

import os
import stat
import tempfile
from bisect import bisect_left, bisect_right
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .launch import Edit
from .rules.base import Diagnostic

if TYPE_CHECKING:
    from .engine import Linter


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
        f = d.fix
        if f is None or f.applicability == "display-only" or (f.applicability == "unsafe" and not unsafe):
            continue
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


def verify(fmt: str, before: bytes, after: bytes) -> Optional[str]:
    """None when ``after`` parses in ``fmt`` at least as well as ``before``; else the reason."""
    try:
        if fmt == "python":
            import ast

            ast.parse(after)
        elif fmt == "yaml":
            import yaml

            loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
            try:
                list(yaml.compose_all(before, Loader=loader))
            except yaml.YAMLError:
                return None  # the original did not parse as plain YAML (templated); spans were checked
            list(yaml.compose_all(after, Loader=loader))
        elif fmt in ("shell", "dockerfile", "markdown"):
            if _shell_errors(after) > _shell_errors(before) and fmt == "shell":
                return "the fixed script no longer parses as shell"
    except SyntaxError as e:
        return f"the fixed file would not parse ({e.msg})"
    except Exception as e:  # yaml.YAMLError and friends
        return f"the fixed file would not parse ({type(e).__name__})"
    return None


def _shell_errors(data: bytes) -> int:
    try:
        import tree_sitter_bash
        from tree_sitter import Language, Parser
    except ImportError:  # pragma: no cover
        return 0
    parser = Parser(Language(tree_sitter_bash.language()))
    tree = parser.parse(data)
    count = 0
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            count += 1
        if n.has_error:
            stack.extend(n.children)
    return count


def fix_loop(linter: "Linter", path: Path, data: bytes, fmt: str, diags: list[Diagnostic],
             **lint_kwargs) -> tuple[bytes, list[Diagnostic], Optional[str], int]:
    """Apply fixes until nothing changes (at most MAX_FIX_PASSES); return the new bytes, the
    findings left, a note when a fix was refused, and how many fixes were applied."""
    from .engine import MAX_FIX_PASSES

    current = data
    note = None
    applied = 0
    for _ in range(MAX_FIX_PASSES):
        edits, count = select_edits(linter.unsuppressed(current, diags), linter.unsafe_fixes)
        if not edits:
            break
        try:
            candidate = apply_edits(current, edits)
        except FixConflict as e:
            note = str(e)
            break
        problem = verify(fmt, current, candidate)
        if problem:
            note = problem
            for d in diags:
                if d.fix is not None:
                    d.fix_blocked = problem
            break
        if candidate == current:
            break
        new_diags, _ = linter.lint_bytes(path, candidate, fmt, **lint_kwargs)
        current, diags = candidate, new_diags
        applied += count
    return current, diags, note, applied


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
