"""Where a finding is, as the reports and baselines name it: its path relative to a root (POSIX
separators), its file's lines (the bytes it was placed in), and its fingerprint, a hash of path,
rule code, option and normalised line content that no edit elsewhere in the file changes (the
GitLab and SARIF reports' fingerprints, and what ``pipeline.baseline`` records)."""

from __future__ import annotations

import os
from collections import Counter

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Callable, Iterable, Optional


def display_path(path: str, root: Optional[str] = None) -> str:
    """``path`` relative to ``root`` (default: the working directory) with ``/`` separators, or
    absolute when it lies outside ``root``."""
    from pathlib import Path  # (not imported by the text report: benchmarks/README.md)

    base = os.path.abspath(root or os.getcwd())
    full = os.path.abspath(path)
    try:
        rel = os.path.relpath(full, base)
    except ValueError:  # another drive (Windows)
        return Path(full).as_posix()
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return Path(full).as_posix()
    return Path(rel).as_posix()


def lines_of(results, sources: Optional[dict] = None, keep: bool = True) -> Callable[[str], list[str]]:
    """Path -> its lines as text: the bytes the findings were placed in (the fixed text after
    --fix or --diff, standard input), else the file as it is now. ``keep``: each file's lines are
    kept once read (False: a caller that asks for one file at a time keeps them itself)."""
    known = dict(sources or {})
    for r in results:
        if r.path not in known and (r.fixed is not None or r.original is not None):
            known[r.path] = r.fixed if r.fixed is not None else r.original
    memo: dict[str, list[str]] = {}

    def get(path: str) -> list[str]:
        got = memo.get(path)
        if got is None:
            data: Optional[bytes] = known.get(path)
            if data is None:
                from ..fsutil import MAX_FILE_BYTES, read_regular

                try:  # (a regular file only, bounded: the path may have changed since it was linted)
                    data = read_regular(path, MAX_FILE_BYTES)
                except (OSError, ValueError):
                    data = b""
            if data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
            got = data.decode("utf-8", errors="replace").splitlines()
            if keep:
                memo[path] = got
        return got

    return get


def line_content(d, lines: Optional[Callable[[str], list[str]]]) -> str:
    """The finding's line with its whitespace normalised ("" for a finding with no place)."""
    if lines is None or d.span is None:
        return ""
    rows = lines(d.path)
    return " ".join(rows[d.row - 1].split()) if 1 <= d.row <= len(rows) else ""


def fingerprint_key(d, root: Optional[str] = None, line: str = "") -> str:
    """The identity of a finding: sha256 of path, code, option and normalised line content."""
    import hashlib  # (loads OpenSSL's bindings: not on the path of a plain text report)

    h = hashlib.sha256()
    for part in (display_path(d.path, root), d.code, d.option or "", line):
        h.update(part.encode("utf-8", "surrogateescape"))
        h.update(b"\0")
    return h.hexdigest()


def fingerprints(diags: Iterable, root: Optional[str] = None,
                 lines: Optional[Callable[[str], list[str]]] = None) -> list[str]:
    """Unique fingerprints in order: the n-th finding with the same key gets ``key:n`` (n from 0),
    so duplicates stay distinct and stable as long as their order in the file is."""
    seen: Counter = Counter()
    out = []
    for d in diags:
        k = fingerprint_key(d, root, line_content(d, lines))
        out.append(f"{k[:32]}:{seen[k]}")
        seen[k] += 1
    return out
