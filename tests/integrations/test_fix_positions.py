"""After --fix, the findings left are positioned in the fixed file and suppression comments are
read from it (the fix may remove lines above them)."""

from __future__ import annotations

import json


def test_remaining_findings_after_fix(run_cli, project):
    p = project / "f.sh"
    p.write_text("vllm serve m \\\n  --swap-space 4 \\\n  --port 1 \\\n  --num-scheduler-steps 3\n")
    r = run_cli("-t", "0.27.1", "--fix", "--output-format", "concise", "f.sh")
    assert p.read_text() == "vllm serve m \\\n  --port 1 \\\n  --num-scheduler-steps 3\n"
    assert "f.sh:3:3: VL101" in r.stdout


def test_suppression_after_fix(run_cli, project):
    p = project / "g.sh"
    p.write_text("vllm serve m \\\n  --swap-space 4 \\\n  --port 1 \\\n"
                 "  --num-scheduler-steps 3  # vllm-lint: ignore[VL101]\n")
    r = run_cli("-t", "0.27.1", "--fix", "--output-format", "json", "--extend-select", "VL003", "g.sh")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == []
