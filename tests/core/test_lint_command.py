"""The lint command's click-free path (vllm_lint.cli.lint_command, vllm_lint.cli.program): its argv reader
gives exactly click's values or steps aside, and both paths print and exit alike."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest
from hypothesis import given, settings, strategies as st

from vllm_lint.cli.app import main
from vllm_lint.cli.lint_command import OPTIONS, parse_argv


def click_values(argv: list[str]):
    """click's values for a lint command line, or None when click refuses it or exits (help)."""
    args = argv[1:] if argv[:1] == ["lint"] else argv
    try:
        ctx = main.get_command(None, "lint").make_context("lint", list(args))
    except (click.exceptions.ClickException, click.exceptions.Exit):
        return None
    return dict(ctx.params)


@pytest.fixture(autouse=True)
def _no_db_env(monkeypatch):
    monkeypatch.delenv("VLLM_LINT_DB", raising=False)


@pytest.fixture
def places(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "f.sh").write_text("echo\n")
    return {"dir": str(tmp_path / "d"), "file": str(tmp_path / "f.sh"), "missing": str(tmp_path / "nope.yaml")}


TAKEN = [  # command lines the click-free path must read itself (pre-commit, editors, CI)
    [],
    ["a.sh"],
    ["lint", "a.sh", "b.yaml"],
    ["--fix", "deploy/"],
    ["--no-cache", "-t", "0.27", "a.sh"],
    ["--output-format=json", "--select", "VL1,VL201", "--ignore=VL3", "x.py", "-q"],
    ["--color", "--gpus", "8", "--gpu", "H100", "--exit-zero", "-v", "--online", "a"],
    ["--no-color", "--statistics", "--extend-select", "VL4", "--diff", "--unsafe-fixes", "-"],
    ["--add-noqa", "--write-baseline", "--target-version=0.8.5", "--output-format", "sarif", "."],
]


@pytest.mark.parametrize("argv", TAKEN)
def test_plain_command_lines_are_read_without_click_and_as_click_reads_them(argv):
    fast = parse_argv(argv)
    assert fast is not None
    assert fast == click_values(argv)


def test_paths_and_config_files_are_checked_as_click_checks_them(places):
    for argv in (["--config", places["file"], places["dir"]], ["--db", places["dir"], places["file"]],
                 ["--baseline", places["missing"], places["missing"]]):
        fast = parse_argv(argv)
        assert fast is not None and fast == click_values(argv)
    for argv in (["--config", places["dir"]], ["--db", places["file"]], ["--baseline", places["dir"]]):
        assert click_values(argv) is None  # click's usage error...
        assert parse_argv(argv) is None  # ...so click must say it


STEPPED_ASIDE = [
    ["--help"], ["-h"], ["--version"], ["lint", "--help"], ["flags", "list"], ["rule", "VL101"], ["db", "status"],
    ["audit"], ["--fix=yes", "a"], ["-qv", "a"], ["-t0.27", "a"], ["--", "-a.sh"], ["--output-format", "JSON"],
    ["--gpus", "eight"], ["--gpus"], ["--select"], ["--unknown", "a"], ["a", "--version"],
]


@pytest.mark.parametrize("argv", STEPPED_ASIDE)
def test_unusual_command_lines_go_to_click(argv):
    assert parse_argv(argv) is None


def test_database_from_the_environment_as_click_takes_it(monkeypatch, places):
    monkeypatch.setenv("VLLM_LINT_DB", places["dir"])
    assert parse_argv(["a.sh"])["db_path"] == places["dir"] == click_values(["a.sh"])["db_path"]
    assert parse_argv(["--db", "other", "a.sh"])["db_path"] == "other"
    monkeypatch.setenv("VLLM_LINT_DB", places["file"])  # a file: click's error
    assert click_values(["a.sh"]) is None and parse_argv(["a.sh"]) is None
    monkeypatch.setenv("VLLM_LINT_DB", "")  # empty: unset, for click too
    assert parse_argv(["a.sh"])["db_path"] is None is click_values(["a.sh"])["db_path"]


_WORDS = ([s for o in OPTIONS for d in o.decls for s in d.split("/")]
          + ["lint", "flags", "--help", "-h", "--", "-qv", "-t0.27", "--fix=1", "--bogus", "-", "-x",
             "a.sh", "deploy/", "0.27", "VL1,VL2", "8", "json", "JSON", "H100", ""])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_WORDS), st.sampled_from([w + "=1" for w in _WORDS if w.startswith("--")]),
                          st.text(alphabet="-=abt0.8,", max_size=6)), max_size=7))
def test_generated_command_lines_read_as_click_reads_them_or_go_to_click(argv):
    fast = parse_argv(argv)
    if fast is not None:
        assert fast == click_values(argv), argv


# ------------------------------------------------------------------ both paths, end to end


def _program(args, cwd, db):
    """``python -m vllm_lint ARGS`` in a process of its own (the fast path, which ends the process
    itself): (exit code, stdout, stderr)."""
    env = {**os.environ, "VLLM_LINT_DB": str(db), "VLLM_LINT_NO_CACHE": "1", "NO_COLOR": "1"}
    r = subprocess.run([sys.executable, "-m", "vllm_lint", *args], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=120)
    return r.returncode, r.stdout, r.stderr


def _through_click(args, cwd, db, monkeypatch):
    """The same command line given to the click application, in this process (click's own
    standalone handling of exits and errors): (exit code, stdout, stderr)."""
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    monkeypatch.chdir(cwd)
    for name, value in (("VLLM_LINT_DB", str(db)), ("VLLM_LINT_NO_CACHE", "1"), ("NO_COLOR", "1")):
        monkeypatch.setenv(name, value)
    r = CliRunner().invoke(main, list(args), prog_name="vllm-lint")
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize("args", [
    ["-t", "0.27.1", "a.sh"], ["-t", "0.27.1", "--output-format", "json", "a.sh"],
    ["-t", "0.27.1", "--statistics", "a.sh"], ["--select", "VL999", "a.sh"], ["--write-baseline", "a.sh"],
    ["--config", "bad.toml", "a.sh"], ["-t", "0.27.1", "--diff", "a.sh"], ["-t", "9.9", "a.sh"]], ids=" ".join)
def test_both_paths_print_and_exit_alike(tmp_path, synth_db_path, args, monkeypatch):
    (tmp_path / "a.sh").write_text("vllm serve m --swap-space 4\n")
    (tmp_path / "bad.toml").write_text("[tool.vllm-lint]\nnot valid = = toml\n")
    assert parse_argv(args) is not None
    fast = _program(args, tmp_path, synth_db_path)
    slow = _through_click(args, tmp_path, synth_db_path, monkeypatch)
    assert fast == slow, args
    assert fast[1] or fast[2]


def test_plain_lint_run_does_not_import_click(tmp_path, synth_db_path):
    f = tmp_path / "run.sh"
    f.write_text("vllm serve m --swap-space 4\n")
    code = (f"import os, sys\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.program import _run\n"
            f"try:\n    _run(['--no-cache', {str(f)!r}])\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    mods = set(r.stderr.split())
    assert "VL101" in r.stdout and "vllm_lint.frontends.shell" in mods
    assert "click" not in mods and "vllm_lint.cli.app" not in mods
