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

from .base import Rule

RULE = Rule(code="VL003", name="unused-suppression", summary="suppression comment that suppresses nothing",
            severity="warning", default_enabled=False)
# Emitted by the engine (Linter.finish), which knows which comments matched a finding; the scan
# is vllm_lint.pipeline.suppress.unused_suppressions.
