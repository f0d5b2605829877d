"""Baselines: adopt vllm-lint on a repository with existing findings, then report only new ones.

``vllm-lint --baseline .vllm-lint-baseline.json --write-baseline deploy/`` records every current
finding; later runs with ``--baseline .vllm-lint-baseline.json`` hide the recorded ones and report
the rest. Nothing in the linted files changes (compare ``--add-noqa``, which writes suppression
comments).

A finding's fingerprint is a hash of its path (relative to the baseline file's directory, POSIX
separators), rule code, option (or environment variable) and the content of its line with the
whitespace normalised; never its line number or column, so edits elsewhere in a file do not turn
recorded findings into new ones, and never its message or the release it was checked against, so
a new vLLM release in the database (or a reworded message) does not either. Identical findings in one file (the same
removed option in two launches) are counted: a baseline recording two hides two, and a third is
reported. The same fingerprints identify findings in the GitLab and SARIF reports.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable, Optional

BASELINE_VERSION = 2  # 1 hashed the message, which names the target release


class BaselineError(Exception):
    """An unreadable or malformed baseline file (exit code 2)."""


def display_path(path: str, root: Optional[str] = None) -> str:
    """``path`` relative to ``root`` (default: the working directory) with ``/`` separators, or
    absolute when it lies outside ``root``."""
    base = os.path.abspath(root or os.getcwd())
    full = os.path.abspath(path)
    try:
        rel = os.path.relpath(full, base)
    except ValueError:  # another drive (Windows)
        return Path(full).as_posix()
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return Path(full).as_posix()
    return Path(rel).as_posix()


def lines_of(results, sources: Optional[dict] = None) -> Callable[[str], list[str]]:
    """Path -> its lines as text: the bytes the findings were placed in (the fixed text after
    --fix or --diff, standard input), else the file as it is now."""
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
                from ..fsutil import read_regular
                from .engine import MAX_FILE_BYTES

                try:  # (a regular file only, bounded: the path may have changed since it was linted)
                    data = read_regular(path, MAX_FILE_BYTES)
                except (OSError, ValueError):
                    data = b""
            if data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
            got = memo[path] = data.decode("utf-8", errors="replace").splitlines()
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


def write(path: Path, results) -> int:
    """Record every finding of ``results`` in ``path``; returns how many were recorded."""
    root = str(path.resolve().parent)
    lines = lines_of(results)
    entries: dict[str, dict] = {}
    for r in results:
        for d in r.diagnostics:
            if d.code == "VL001":  # files that cannot be read are never baselined
                continue
            shown = display_path(d.path, root)
            content = line_content(d, lines)
            fp = fingerprint_key(d, root, content)
            e = entries.setdefault(fp, {"fingerprint": fp, "path": shown, "code": d.code, "option": d.option,
                                        "content": content, "message": d.message, "count": 0})
            e["count"] += 1
    rows = sorted(entries.values(), key=lambda e: (e["path"], e["code"], e["option"] or "", e["content"], e["message"]))
    doc = {"tool": "vllm-lint", "version": BASELINE_VERSION,
           "note": "Findings recorded by `vllm-lint --write-baseline`; runs with --baseline report only others.",
           "findings": rows}
    from ..fsutil import replace_file

    # (a random temporary name, created exclusively: a link planted at ``<baseline>.tmp`` in the
    # repository was written through)
    replace_file(path, (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    return sum(e["count"] for e in rows)


def load(path: Path) -> Counter:
    """Recorded fingerprint -> count."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BaselineError(f"{path}: no such baseline file (create it with --write-baseline)") from None
    except OSError as e:
        raise BaselineError(f"{path}: cannot read the baseline: {e.strerror or e}") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise BaselineError(f"{path}: not a vllm-lint baseline (invalid JSON: {e})") from None
    if not isinstance(doc, dict) or doc.get("tool") != "vllm-lint" or not isinstance(doc.get("findings"), list):
        raise BaselineError(f"{path}: not a vllm-lint baseline file")
    if doc.get("version") != BASELINE_VERSION:
        raise BaselineError(f"{path}: baseline version {doc.get('version')!r} is not supported "
                            f"(expected {BASELINE_VERSION}); re-create it with --write-baseline")
    out: Counter = Counter()
    for e in doc["findings"]:
        if not isinstance(e, dict) or not isinstance(e.get("fingerprint"), str):
            raise BaselineError(f"{path}: malformed entry {e!r}")
        out[e["fingerprint"]] += int(e.get("count", 1))
    return out


def apply(path: Path, results) -> int:
    """Drop the findings recorded in the baseline at ``path`` from ``results`` (in place);
    returns how many were dropped."""
    budget = load(path)
    root = str(path.resolve().parent)
    lines = lines_of(results)
    dropped = 0
    for r in results:
        kept = []
        for d in r.diagnostics:
            k = fingerprint_key(d, root, line_content(d, lines))
            if d.code != "VL001" and budget[k] > 0:
                budget[k] -= 1
                dropped += 1
            else:
                kept.append(d)
        r.diagnostics = kept
    return dropped
