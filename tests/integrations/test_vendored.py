"""Vendored charts: extend-exclude skips them in directory walks; per-file-ignores silences
rules for matching files; both from the project's configuration."""

from __future__ import annotations

from integration_data import DEPLOYMENT


def findings(run_cli, *args):
    r = run_cli("-t", "0.27.1", "--output-format", "concise", *args)
    return r, sorted({line.split(":", 1)[0] for line in r.stdout.splitlines() if ": VL" in line})


def setup_charts(project):
    for rel in ("charts/vendor/vllm-stack/templates/deployment.yaml", "charts/ours/templates/deployment.yaml",
                "charts/ours/values.yaml"):
        p = project / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(DEPLOYMENT)


def test_extend_exclude_skips_vendored_charts(run_cli, project):
    setup_charts(project)
    r, files = findings(run_cli, "charts")
    assert "charts/vendor/vllm-stack/templates/deployment.yaml" in files
    (project / ".vllm-lint.toml").write_text('extend-exclude = ["charts/vendor/"]\n')
    r, files = findings(run_cli, "charts")
    assert files == ["charts/ours/templates/deployment.yaml", "charts/ours/values.yaml"]
    r, files = findings(run_cli, ".")
    assert not any(f.startswith("charts/vendor") for f in files) and "deploy.sh" in files
    # a file named explicitly is still linted (as ruff does without --force-exclude)
    r, files = findings(run_cli, "charts/vendor/vllm-stack/templates/deployment.yaml")
    assert files == ["charts/vendor/vllm-stack/templates/deployment.yaml"]


def test_per_file_ignores_for_charts(run_cli, project):
    setup_charts(project)
    (project / ".vllm-lint.toml").write_text(
        'extend-exclude = ["charts/vendor/"]\n\n[per-file-ignores]\n"charts/*/values.yaml" = ["VL1"]\n'
        '"charts/ours/templates/*" = ["VL101", "VL2", "VL406"]\n')
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "charts")
    lines = [line for line in r.stdout.splitlines() if ": VL" in line]
    assert not any(line.startswith("charts/ours/values.yaml") and ": VL1" in line for line in lines)
    ours = [line for line in lines if line.startswith("charts/ours/templates/")]
    assert ours and all(" VL105 " in line for line in ours)


def test_pyproject_configuration(run_cli, project):
    setup_charts(project)
    (project / "pyproject.toml").write_text('[tool.vllm-lint]\nextend-exclude = ["charts/vendor/"]\n')
    r, files = findings(run_cli, "charts")
    assert not any(f.startswith("charts/vendor") for f in files)
