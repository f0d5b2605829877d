"""action.yml: a well-formed composite action whose lint step, run as the runner would run it,
prints GitHub annotations, writes SARIF when asked and passes the exit code through."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from integration_data import REPO


def action():
    return yaml.safe_load((REPO / "action.yml").read_text())


def test_action_is_well_formed():
    a = action()
    assert a["runs"]["using"] == "composite"
    steps = a["runs"]["steps"]
    assert all(s.get("shell") == "bash" for s in steps)
    for s in steps:  # inputs reach scripts through the environment, never spliced into them
        assert "${{" not in s["run"]
    used = {v.split("inputs.")[1].rstrip("} ").strip() for s in steps for v in s.get("env", {}).values()}
    assert used <= set(a["inputs"])
    if shutil.which("bash"):
        for s in steps:
            subprocess.run(["bash", "-n"], input=s["run"], text=True, check=True)


@pytest.mark.skipif(not shutil.which("bash"), reason="needs bash")
def test_lint_step_runs(tmp_path, synth_db_path):
    step = next(s for s in action()["runs"]["steps"] if s.get("id") == "lint")
    (tmp_path / "deploy.sh").write_text("vllm serve m --swap-space 4\n")
    out_file = tmp_path / "gh_output"
    env = {**os.environ, "ARGS": "deploy.sh --target-version 0.27.1", "SARIF_FILE": "report.sarif",
           "GITHUB_OUTPUT": str(out_file), "VLLM_LINT_DB": str(synth_db_path), "VLLM_LINT_NO_CACHE": "1",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    r = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1, r.stderr
    assert r.stdout.startswith("::error file=deploy.sh,line=1,col=14,") and "title=VL101::" in r.stdout
    assert out_file.read_text() == "exit-code=1\n"
    doc = json.loads((tmp_path / "report.sarif").read_text())
    assert doc["runs"][0]["results"][0]["ruleId"] == "VL101"
