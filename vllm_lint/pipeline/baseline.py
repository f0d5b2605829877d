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
from collections import Counter
from pathlib import Path

# (the identity of a finding is the reports' too: they live in the report layer, below this one)
from ..report.fingerprints import display_path, fingerprint_key, fingerprints, line_content, lines_of  # noqa: F401

BASELINE_VERSION = 2  # 1 hashed the message, which names the target release


class BaselineError(Exception):
    """An unreadable or malformed baseline file (exit code 2)."""


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
