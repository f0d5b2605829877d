"""## What it does
Reports a suppression comment (`# vllm-lint: ignore` or `# vllm-lint: ignore[CODES]`) that no
longer suppresses anything, or codes inside one that match no finding. Off by default; enable
it with `--extend-select VL003` (or `extend-select = ["VL003"]` in the configuration), like
ruff's RUF100.

## Why is this bad?
Suppressions outlive the problems they hid: after an upgrade or a fix, a stale
`# vllm-lint: ignore[VL101]` silently hides the next real finding on that line. Removing unused
suppressions keeps the ones left meaningful.

## Example
```bash
vllm serve m --port 8000  # vllm-lint: ignore[VL101]
```
`deploy.sh:1:27: VL003 unused suppression comment (unused: VL101)`

A comment naming a code that no rule has (`ignore[VL999]`) is reported as unknown. Codes of
rules that are not selected in this run are left alone: they may suppress findings in a run
that selects them.

## Fix safety
No automatic fix: delete the comment, or the codes it names that are reported as unused.

## Evidence
Behaviour of the tool itself. A suppression comment matches on the finding's line, on a
standalone comment line right above it, on a standalone comment line right above the first
line of a backslash-continued command, and on the header line of a YAML block scalar
(`args: |  # vllm-lint: ignore[VL101]`) for findings inside the scalar.
"""

from __future__ import annotations

from typing import Optional

from .base import Diagnostic, Rule

RULE = Rule(code="VL003", name="unused-suppression", summary="suppression comment that suppresses nothing",
            severity="warning", default_enabled=False)
# Emitted by the engine (Linter.finish), which knows which comments matched a finding.


def unused_suppressions(data: bytes, index, used: set, enabled: set[str], path: str) -> list[Diagnostic]:
    """VL003 findings for ``data``: ``used`` holds the ``(row0, code or None)`` pairs that matched
    a finding in ``Linter._suppressed``; ``enabled`` the codes selected in this run."""
    from ..engine import _SUPPRESS
    from ..launch import Span
    from .base import registry

    known = set(registry())
    out = []
    for row0 in range(len(index.starts)):
        line = index.line_bytes(row0)
        m = _SUPPRESS.search(line)
        if not m:
            continue
        start = index.starts[row0]
        span = Span(start + m.start(), start + len(line.rstrip(b"\r\n")))
        if m.group(1) is None:
            if (row0, None) not in used:
                out.append(_diag("unused suppression comment (it suppresses nothing)", path, span))
            continue
        wanted = [c.strip().upper() for c in m.group(1).decode().split(",") if c.strip()]
        unused, unknown = [], []
        for c in wanted:
            if (row0, c) in used:
                continue
            if not any(k.startswith(c) for k in known):
                unknown.append(c)
            elif any(k.startswith(c) for k in enabled if k not in ("VL001", "VL003")):
                unused.append(c)
        if unused or unknown:
            parts = ([f"unused: {', '.join(unused)}"] if unused else []) \
                + ([f"unknown: {', '.join(unknown)}"] if unknown else [])
            whole = len(unused) + len(unknown) == len(wanted)
            what = "unused suppression comment" if whole else "suppression comment names codes it does not need"
            out.append(_diag(f"{what} ({'; '.join(parts)})", path, span))
    return out


def _diag(message: str, path: str, span: Optional[object]) -> Diagnostic:
    return Diagnostic(RULE.code, message, path, span, severity=RULE.severity)
