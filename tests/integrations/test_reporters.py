"""One snapshot per output format (``report.base.REPORTERS``), all over the same findings: the
integration project linted at 0.27.1 (``integration_data.PROJECT``). The project's folder and the
tool's version are written as ``{project}`` and ``{version}``; SARIF's rule documentation (the
rules' docstrings, shown by ``vllm-lint rule``) as ``{doc of VLxxx}``, so that a rule's wording
changes its own page only. ``python -m pytest
tests/integrations/test_reporters.py --regen`` rewrites them, to review."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vllm_lint import __version__

SNAPSHOTS = Path(__file__).parent / "reporters"
FILES = ["deploy.sh", "k8s/deployment.yaml", "Dockerfile", "offline.py", "README.md", "clean.sh"]


def _reporter_names() -> list[str]:
    from vllm_lint.report.base import REPORTERS

    return [r.name for r in REPORTERS]


@pytest.mark.parametrize("name", _reporter_names())
def test_each_reporter_on_the_shared_findings(run_cli, project, snapshot, name):
    r = run_cli("-t", "0.27.1", "--no-color", "--output-format", name, *FILES)
    assert r.exit_code == 1, r.output
    out = r.stdout
    for spelled in (project.as_uri(), json.dumps(str(project))[1:-1], str(project)):  # the longest first
        out = out.replace(spelled, "{project}")
    if name == "sarif":
        out = _without_rule_docs(out)
    snapshot(SNAPSHOTS / f"{name}.snap", out.replace(__version__, "{version}"))


def _without_rule_docs(sarif: str) -> str:
    doc = json.loads(sarif)
    for rule in doc["runs"][0]["tool"]["driver"]["rules"]:
        for key in ("fullDescription", "help"):
            for form in ("text", "markdown"):
                if form in rule.get(key, {}):
                    rule[key][form] = f"{{doc of {rule['id']}}}"
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def test_every_reporter_has_a_snapshot_and_every_snapshot_a_reporter():
    assert sorted(p.stem for p in SNAPSHOTS.glob("*.snap")) == sorted(_reporter_names())


def test_each_row_of_the_registry_names_a_renderer_and_the_command_line_offers_it():
    import importlib

    from vllm_lint.cli.lint_command import FORMAT_ALIASES, OUTPUT_FORMATS
    from vllm_lint.report.base import REPORTERS, get, names

    for r in REPORTERS:
        assert callable(getattr(importlib.import_module(f"vllm_lint.report.{r.module}"), r.function)), r.name
        assert get(r.name) is r and all(get(a) is r for a in r.aliases)
    assert OUTPUT_FORMATS == names() and len(set(names())) == len(names())
    assert FORMAT_ALIASES == {"full": "text"}


def test_statistics_and_diff_go_with_the_formats_the_registry_says(run_cli, project):
    from vllm_lint.report.base import REPORTERS

    for r in REPORTERS:
        stats = run_cli("-t", "0.27.1", "--statistics", "--output-format", r.name, "deploy.sh")
        assert (stats.exit_code == 2) == (not r.statistics), (r.name, stats.output)
        diff = run_cli("-t", "0.27.1", "--diff", "--output-format", r.name, "deploy.sh")
        assert (diff.exit_code == 2) == (not r.human), (r.name, diff.output)
