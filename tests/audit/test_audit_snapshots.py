"""The audit's three outputs (text, Markdown, JSON) over one operator repository (``repo/``: a
Deployment, a compose file, a production-stack chart's values, a script, the variables a script
exports for no launch, offline Python), as snapshots (``snapshots/repo.*``). A change to what the
audit finds or how it words it shows here as a diff; ``python -m pytest tests/audit --regen``
rewrites them, to review."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("output_format,suffix", [("text", "txt"), ("markdown", "md"), ("json", "json")])
def test_the_audit_of_an_operator_repository(run_audit, monkeypatch, snapshot, output_format, suffix):
    monkeypatch.chdir(HERE / "repo")
    r = run_audit("--to", "0.27.1", "--format", output_format, ".")
    assert r.exit_code == 1, r.output
    snapshot(HERE / "snapshots" / f"repo.{suffix}", r.output)
