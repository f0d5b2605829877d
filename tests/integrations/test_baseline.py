"""--baseline / --write-baseline: record today's findings, report only new ones, stable against
line shifts; counted duplicates; clear errors."""

from __future__ import annotations

import json

BASE = ".vllm-lint-baseline.json"


def concise(run_cli, *args):
    r = run_cli("-t", "0.27.1", "--output-format", "concise", *args)
    return r, [line for line in r.stdout.splitlines() if ": VL" in line]


def test_record_then_only_new_findings(run_cli, project):
    r = run_cli("-t", "0.27.1", "--baseline", BASE, "--write-baseline", ".")
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith("Recorded ") and BASE in r.stderr
    doc = json.loads((project / BASE).read_text())
    assert doc["tool"] == "vllm-lint" and doc["version"] == 2
    paths = {e["path"] for e in doc["findings"]}
    assert {"deploy.sh", "k8s/deployment.yaml", "Dockerfile", "offline.py", "README.md"} <= paths
    assert all("row" not in e and "line" not in e for e in doc["findings"]), "no positions in fingerprints"

    r, found = concise(run_cli, "--baseline", BASE, ".")
    assert r.exit_code == 0 and found == [] and "All checks passed!" in r.stdout

    # shift every line of the script down: still nothing new
    p = project / "deploy.sh"
    text = p.read_text()
    p.write_text(text.replace("#!/bin/bash\n", "#!/bin/bash\n# owner: infra\nset -e\n\n"))
    r, found = concise(run_cli, "--baseline", BASE, ".")
    assert r.exit_code == 0 and found == []

    # a new finding is reported, and only it
    p.write_text(p.read_text() + "vllm serve m --guided-decoding-backend xgrammar\n")
    r, found = concise(run_cli, "--baseline", BASE, ".")
    assert r.exit_code == 1 and len(found) == 1 and "--guided-decoding-backend" in found[0]


def test_duplicates_are_counted(run_cli, project):
    p = project / "dup.sh"
    p.write_text("vllm serve m --swap-space 4\n")
    assert run_cli("-t", "0.27.1", "--baseline", BASE, "--write-baseline", "dup.sh").exit_code == 0
    p.write_text("vllm serve m --swap-space 4\nvllm serve m --swap-space 4\n")
    r, found = concise(run_cli, "--baseline", BASE, "dup.sh")
    assert r.exit_code == 1 and len(found) == 1


def test_paths_are_relative_to_the_baseline_file(run_cli, project, monkeypatch):
    assert run_cli("-t", "0.27.1", "--baseline", BASE, "--write-baseline", ".").exit_code == 0
    monkeypatch.chdir(project / "k8s")
    r, found = concise(run_cli, "--baseline", f"../{BASE}", "deployment.yaml", "../deploy.sh")
    assert r.exit_code == 0 and found == []


def test_bad_baselines(run_cli, project):
    r = run_cli("-t", "0.27.1", "--baseline", "missing.json", ".")
    assert r.exit_code == 2 and "no such baseline file" in r.stderr
    (project / "bad.json").write_text("{not json")
    r = run_cli("-t", "0.27.1", "--baseline", "bad.json", ".")
    assert r.exit_code == 2 and "not a vllm-lint baseline" in r.stderr
    (project / "other.json").write_text('{"tool": "ruff", "findings": []}')
    assert run_cli("-t", "0.27.1", "--baseline", "other.json", ".").exit_code == 2


def test_parse_errors_are_never_baselined(run_cli, project):
    (project / "bad.yaml").write_text('args: ["--model", "vllm"\n')
    assert run_cli("-t", "0.27.1", "--baseline", BASE, "--write-baseline", ".").exit_code == 0
    r, found = concise(run_cli, "--baseline", BASE, ".")
    assert r.exit_code == 1 and len(found) == 1 and "VL001" in found[0]
