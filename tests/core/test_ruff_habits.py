"""What a ruff user reaches for works here too (issue 30, "The CLI where ruff users reach for
it"): ``--output-format full``, ``--select ALL``, ``vllm-lint version``, a mistyped command named
as such, usage errors naming the command typed, ``-`` without a name, a ``# noqa`` hint."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from vllm_lint.cli.lint_command import command_suggestion
from vllm_lint.rules.base import registry, select_layered


def cli(*args: str, stdin: str = "", cwd=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "VLLM_LINT_NO_CACHE": "1"}
    env.pop("VLLM_LINT_DB", None)
    # the console script, so that messages name the program as users type it
    program = Path(sys.executable).with_name("vllm-lint")
    argv = [str(program)] if program.exists() else [sys.executable, "-m", "vllm_lint"]
    return subprocess.run([*argv, *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, env=env)


@pytest.fixture
def script(tmp_path):
    p = tmp_path / "serve.sh"
    p.write_text("vllm serve m --swap-space 4  # noqa: VL101\n")
    return p


def test_output_format_full_is_text(script):
    full, text = cli("--output-format", "full", str(script)), cli("--output-format", "text", str(script))
    assert full.returncode == text.returncode == 1
    assert full.stdout == text.stdout and "VL101" in full.stdout


def test_select_all_chooses_every_rule_even_off_by_default():
    chosen = {r.code for r in select_layered([(["ALL"], [], [])])}
    assert chosen == {code for code, rule in registry().items() if not rule.preview}
    assert "VL003" in chosen  # off by default, chosen by ALL as ruff's ALL does
    # any other prefix outranks ALL in the same layer
    assert not {c for c in {r.code for r in select_layered([(["ALL"], [], ["VL1"])])} if c.startswith("VL1")}


def test_select_all_on_the_command_line(script):
    out = cli("--select", "ALL", str(script))
    assert out.returncode == 1, out.stderr
    assert "unknown rule code" not in out.stderr


def test_version_command():
    out = cli("version")
    assert out.returncode == 0 and out.stdout.startswith("vllm-lint ")


def test_mistyped_command_is_named_not_linted(tmp_path):
    out = cli("flgs", "show", "swap-space", cwd=tmp_path)
    assert out.returncode == 2
    assert "did you mean `vllm-lint flags`" in out.stderr
    assert "VL001" not in out.stdout


def test_an_existing_path_is_never_taken_for_a_typo(tmp_path):
    (tmp_path / "flgs").write_text("echo hi\n")
    assert command_suggestion(str(tmp_path / "flgs")) is None
    assert command_suggestion("flgs") == "flags"
    assert command_suggestion("deploy") is None


def test_usage_error_names_the_command_typed():
    out = cli("--bogus-option")
    assert out.returncode == 2
    assert "Try 'vllm-lint --help'" in out.stderr and "lint lint" not in out.stderr
    assert "vllm-lint lint --help" not in out.stderr


def test_help_lists_every_command():
    out = cli("--help")
    for command in ("flags", "rule", "audit", "db", "server", "site", "version", "upgrade", "check-args"):
        assert f"vllm-lint {command}" in out.stdout, command


def test_unnamed_stdin_is_read_by_its_content():
    out = cli("-", stdin="vllm serve m --swap-space 4\n")
    assert out.returncode == 1, out.stderr
    assert out.stdout.startswith("-:1:14: VL101")
    yaml = ("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.10.0\n"
            "    args: [\"--bogus-x\"]\n")
    out = cli("-", stdin=yaml)
    assert "-:6:" in out.stdout and "VL103" in out.stdout


def test_stdin_without_a_launch_says_so_as_a_file_does():
    out = cli("-", stdin="echo hello\n")
    assert out.returncode == 0
    assert "No vLLM launch found in 1 file." in out.stderr + out.stdout
    assert "All checks passed!" not in out.stderr + out.stdout
    clean = cli("-", stdin="vllm serve m --port 8000\n")
    assert "All checks passed!" in clean.stderr + clean.stdout


def test_noqa_hint(script):
    out = cli(str(script))
    assert "note: vllm-lint does not read `# noqa`; suppress with `# vllm-lint: ignore[VL101]`" in out.stdout
    clean = script.parent / "clean.sh"
    clean.write_text("vllm serve m --swap-space 4\n")
    assert "# noqa" not in cli(str(clean)).stdout
