"""Baselines: adopt vllm-lint on a repository with existing findings, then report only new ones.

``vllm-lint --baseline .vllm-lint-baseline.json --write-baseline deploy/`` records every current
finding; later runs with ``--baseline .vllm-lint-baseline.json`` hide the recorded ones and report
the rest. Nothing in the linted files changes (compare ``--add-noqa``, which writes suppression
comments).

A finding's fingerprint is a hash of its path (relative to the baseline file's directory, POSIX
separators), rule code, option and message; never its line or column, so edits elsewhere in a
file do not turn recorded findings into new ones. Identical findings in one file (the same
removed option in two launches) are counted: a baseline recording two hides two, and a third is
reported. The same fingerprints identify findings in the GitLab and SARIF reports.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import Iterable, Optional

BASELINE_VERSION = 1


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


def fingerprint_key(d, root: Optional[str] = None) -> str:
    """The line-independent identity of a finding: sha256 of path, code, option and message."""
    h = hashlib.sha256()
    for part in (display_path(d.path, root), d.code, d.option or "", d.message):
        h.update(part.encode("utf-8", "surrogateescape"))
        h.update(b"\0")
    return h.hexdigest()


def fingerprints(diags: Iterable, root: Optional[str] = None) -> list[str]:
    """Unique fingerprints in order: the n-th finding with the same key gets ``key:n`` (n from 0),
    so duplicates stay distinct and stable as long as their order in the file is."""
    seen: Counter = Counter()
    out = []
    for d in diags:
        k = fingerprint_key(d, root)
        out.append(f"{k[:32]}:{seen[k]}")
        seen[k] += 1
    return out


def write(path: Path, results) -> int:
    """Record every finding of ``results`` in ``path``; returns how many were recorded."""
    root = str(path.resolve().parent)
    entries: dict[tuple, dict] = {}
    for r in results:
        for d in r.diagnostics:
            if d.code == "VL001":  # files that cannot be read are never baselined
                continue
            shown = display_path(d.path, root)
            key = (shown, d.code, d.option or "", d.message)
            e = entries.setdefault(key, {"fingerprint": fingerprint_key(d, root), "path": shown, "code": d.code,
                                         "option": d.option, "message": d.message, "count": 0})
            e["count"] += 1
    rows = sorted(entries.values(), key=lambda e: (e["path"], e["code"], e["option"] or "", e["message"]))
    doc = {"tool": "vllm-lint", "version": BASELINE_VERSION,
           "note": "Findings recorded by `vllm-lint --write-baseline`; runs with --baseline report only others.",
           "findings": rows}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
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
    dropped = 0
    for r in results:
        kept = []
        for d in r.diagnostics:
            k = fingerprint_key(d, root)
            if d.code != "VL001" and budget[k] > 0:
                budget[k] -= 1
                dropped += 1
            else:
                kept.append(d)
        r.diagnostics = kept
    return dropped
