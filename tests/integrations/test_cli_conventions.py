"""The command line's conventions, as ruff (and hadolint, pluto, actionlint) users expect them, and
the defects of issue 18 that live in the lint command: each tested through the CLI."""

from __future__ import annotations

import importlib.resources
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

SCRIPT = "#!/bin/bash\nvllm serve m \\\n  --swap-space 4 \\\n  --cuda-graph-sizes 1 2 \\\n  --port 8000\n"
INFO_ONLY = "vllm serve deepseek-ai/DeepSeek-V3 --trust-remote-code\n"  # VL502 info (its repository ships code, unpinned)


def shipped_db() -> str:
    return str(importlib.resources.files("vllm_lint.flag_db"))


@pytest.fixture
def here(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def concise(r) -> list[str]:
    return [line for line in r.stdout.splitlines() if ": VL" in line]


# ------------------------------------------------------------------ text output and severity


def test_text_output_shows_the_source_a_caret_the_fix_title_and_the_severity(run_cli, here):
    (here / "a.sh").write_text(SCRIPT)
    r = run_cli("-t", "0.27.1", "--no-color", "a.sh")
    assert r.exit_code == 1
    out = r.stdout
    assert "a.sh:4:3: VL102 [*] error: `--cuda-graph-sizes` was renamed" in out
    assert "4 |   --cuda-graph-sizes 1 2 \\\n  |   ^^^^^^^^^^^^^^^^^^\n" in out
    assert "help: Rename to `--cudagraph-capture-sizes`" in out
    assert "\x1b[" not in out


def test_concise_is_one_line_per_finding_with_the_severity(run_cli, here):
    (here / "a.sh").write_text(SCRIPT)
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "a.sh")
    lines = r.stdout.splitlines()
    assert lines[0].startswith("a.sh:3:3: VL101 [*] error: `--swap-space`")
    assert not any(line.lstrip().startswith(("|", "^", "help:")) for line in lines)
    assert lines[-3].startswith("Found ") or lines[-2].startswith("Found ")


def test_info_findings_do_not_fail_the_run_by_default(run_cli, here):
    (here / "moe.sh").write_text(INFO_ONLY)
    r = run_cli("--db", shipped_db(), "-t", "0.27.1", "--output-format", "concise", "moe.sh")
    assert concise(r) and all(" VL502 info: " in line for line in concise(r)), r.stdout
    assert r.exit_code == 0, r.stdout
    assert "below the --fail-on warning threshold" in r.stdout
    assert run_cli("--db", shipped_db(), "-t", "0.27.1", "--fail-on", "info", "moe.sh").exit_code == 1


def test_fail_on_in_the_configuration_and_on_the_command_line(run_cli, here):
    (here / "a.sh").write_text(SCRIPT)
    (here / ".vllm-lint.toml").write_text('fail-on = "error"\nseverity = { "VL1" = "warning" }\n')
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "a.sh")
    assert r.exit_code == 0 and all(" warning: " in line for line in concise(r))
    assert run_cli("-t", "0.27.1", "--fail-on", "warning", "a.sh").exit_code == 1
    (here / ".vllm-lint.toml").write_text('fail-on = "fatal"\n')
    r = run_cli("-t", "0.27.1", "a.sh")
    assert r.exit_code == 2 and ".vllm-lint.toml" in r.stderr and "fail-on" in r.stderr


def test_severity_is_in_every_text_and_machine_format(run_cli, here):
    (here / "a.sh").write_text(SCRIPT)
    cs = ET.fromstring(run_cli("-t", "0.27.1", "--output-format", "checkstyle", "a.sh").stdout)
    assert {e.get("severity") for e in cs.iter("error")} == {"error"}
    assert {e.get("source") for e in cs.iter("error")} == {"vllm-lint.VL101", "vllm-lint.VL102"}
    rd = json.loads(run_cli("-t", "0.27.1", "--output-format", "rdjson", "a.sh").stdout)
    assert rd["source"]["name"] == "vllm-lint"
    d = next(x for x in rd["diagnostics"] if x["code"]["value"] == "VL102")
    assert d["severity"] == "ERROR" and d["location"] == {"path": "a.sh", "range": {
        "start": {"line": 4, "column": 3}, "end": {"line": 4, "column": 21}}}
    assert d["suggestions"][0]["text"] == "--cudagraph-capture-sizes"
    lines = run_cli("-t", "0.27.1", "--output-format", "json-lines", "a.sh").stdout.splitlines()
    objs = [json.loads(line) for line in lines]
    assert [o["code"] for o in objs] == ["VL101", "VL102"] and objs[0]["name"] == "removed-option"
    full = json.loads(run_cli("-t", "0.27.1", "--output-format", "json", "a.sh").stdout)
    assert [o["name"] for o in full] == ["removed-option", "renamed-option"]


def test_output_file(run_cli, here):
    (here / "a.sh").write_text(SCRIPT)
    r = run_cli("-t", "0.27.1", "--output-format", "json", "-o", "report.json", "a.sh")
    assert r.exit_code == 1 and r.stdout == ""
    assert len(json.loads((here / "report.json").read_text())) == 2


def test_force_color_and_no_color(run_cli, here):
    (here / "a.sh").write_text(SCRIPT)
    assert "\x1b[" in run_cli("-t", "0.27.1", "a.sh", env={"FORCE_COLOR": "1"}).stdout
    assert "\x1b[" not in run_cli("-t", "0.27.1", "a.sh", env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout


# ------------------------------------------------------------------ combinations (defect 12)


def test_statistics_as_json(run_cli, here):
    (here / "a.sh").write_text(SCRIPT + "vllm serve m --swap-space 8\n")
    r = run_cli("-t", "0.27.1", "--statistics", "--output-format", "json", "a.sh")
    assert json.loads(r.stdout) == [
        {"code": "VL101", "name": "removed-option", "count": 2, "fixable": True},
        {"code": "VL102", "name": "renamed-option", "count": 1, "fixable": True}]


@pytest.mark.parametrize("args,needle", [
    (["--diff", "--output-format", "json"], "--diff"),
    (["--statistics", "--output-format", "sarif"], "--statistics"),
    (["-t", ""], "--target-version"),
    (["--isolated", "--config", "x.toml"], "--isolated"),
])
def test_combinations_that_cannot_work_are_usage_errors(run_cli, here, args, needle):
    (here / "a.sh").write_text(SCRIPT)
    (here / "x.toml").write_text("")
    r = run_cli(*args, "a.sh")
    assert r.exit_code == 2 and needle in r.stderr and len(r.stderr.splitlines()) == 1


# ------------------------------------------------------------------ fixing


def test_fix_only_show_fixes_and_exit_non_zero_on_fix(run_cli, here):
    p = here / "a.sh"
    p.write_text(SCRIPT + "vllm serve m --bogus-option 1\n")
    r = run_cli("-t", "0.27.1", "--fix-only", "--show-fixes", "a.sh")
    assert r.exit_code == 0 and "--cudagraph-capture-sizes" in p.read_text()
    assert "VL103" not in r.stdout  # what is left is not reported
    assert "1 x VL101 (removed-option)" in r.stderr and "1 x VL102 (renamed-option)" in r.stderr
    p.write_text(SCRIPT)
    assert run_cli("-t", "0.27.1", "--fix", "a.sh").exit_code == 0  # everything fixed: exit 0, as ruff
    p.write_text(SCRIPT)
    assert run_cli("-t", "0.27.1", "--fix", "--exit-non-zero-on-fix", "a.sh").exit_code == 1


# ------------------------------------------------------------------ standard input


def test_stdin_lints_as_the_named_file(run_cli, here):
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "--stdin-filename", "deploy/serve.sh", "-",
                input=SCRIPT)
    assert r.exit_code == 1 and concise(r)[0].startswith("deploy/serve.sh:3:3: VL101")
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "-", input=SCRIPT)  # the shebang says shell
    assert concise(r)[0].startswith("-:3:3: VL101")


def test_stdin_fix_writes_the_fixed_text_to_stdout(run_cli, here):
    r = run_cli("-t", "0.27.1", "--fix", "--stdin-filename", "serve.sh", "-", input=SCRIPT)
    assert r.exit_code == 0
    assert r.stdout == "#!/bin/bash\nvllm serve m \\\n  --cudagraph-capture-sizes 1 2 \\\n  --port 8000\n"
    assert "2 fixed" in r.stderr


def test_stdin_settings_and_excludes_come_from_the_name(run_cli, here):
    (here / "vendor").mkdir()
    (here / "vendor" / "up.sh").write_text(SCRIPT)
    (here / ".vllm-lint.toml").write_text('extend-exclude = ["vendor/"]\nignore = ["VL102"]\n')
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "--stdin-filename", "serve.sh", "-", input=SCRIPT)
    assert [line.split()[1] for line in concise(r)] == ["VL101"]
    r = run_cli("-t", "0.27.1", "--force-exclude", "--fix", "--stdin-filename", "vendor/up.sh", "-", input=SCRIPT)
    assert r.exit_code == 0 and r.stdout == SCRIPT


# ------------------------------------------------------------------ settings


def test_show_settings_and_show_files(run_cli, here):
    (here / "k8s").mkdir()
    (here / "k8s" / "a.sh").write_text(SCRIPT)
    (here / "vendor").mkdir()
    (here / "vendor" / "b.sh").write_text(SCRIPT)
    (here / "pyproject.toml").write_text('[tool.vllm-lint]\ntarget-version = "0.27.1"\nextend-exclude = ["vendor/"]\n')
    r = run_cli("--show-files", ".")
    assert r.exit_code == 0 and r.stdout.split() == ["k8s/a.sh"]
    r = run_cli("--show-settings", "k8s/a.sh")
    assert r.exit_code == 0
    assert f"Settings path: {here / 'pyproject.toml'}" in r.stdout
    assert 'target-version = "0.27.1"  # from configuration' in r.stdout
    assert 'extend-exclude = ["vendor/"]' in r.stdout and '"VL101"' in r.stdout


def test_extend_reads_a_shared_base_and_isolated_reads_nothing(run_cli, here):
    (here / "org").mkdir()
    (here / "org" / "base.toml").write_text('ignore = ["VL102"]\ntarget-version = "0.10"\n')
    (here / "proj").mkdir()
    (here / "proj" / ".vllm-lint.toml").write_text('extend = "../org/base.toml"\ntarget-version = "0.27.1"\n')
    (here / "proj" / "a.sh").write_text(SCRIPT)
    r = run_cli("--output-format", "concise", "proj/a.sh")
    assert [line.split()[1] for line in concise(r)] == ["VL101"]  # the base's ignore, the project's target
    assert "[vllm" not in r.stdout
    r = run_cli("--output-format", "json", "proj/a.sh")
    assert {d["target_version"] for d in json.loads(r.stdout)} == {"0.27.1"}
    r = run_cli("--isolated", "-t", "0.27.1", "--output-format", "concise", "proj/a.sh")
    assert [line.split()[1] for line in concise(r)] == ["VL101", "VL102"]
    (here / "org" / "base.toml").write_text('extend = "../proj/.vllm-lint.toml"\n')
    r = run_cli("proj/a.sh")
    assert r.exit_code == 2 and "cycle" in r.stderr


def test_selection_precedence_is_ruffs(run_cli, here):
    """Defect 8: CLI --select overrides the configuration's ignore; a CLI --ignore adds to it."""
    (here / "a.sh").write_text(SCRIPT + "vllm serve m --bogus-option 1\n")
    (here / ".vllm-lint.toml").write_text('ignore = ["VL102"]\n')

    def codes(*args):
        return sorted({line.split()[1] for line in concise(run_cli("-t", "0.27.1", "--output-format", "concise",
                                                                   *args, "a.sh"))})
    assert codes() == ["VL101", "VL103"]
    assert codes("--select", "VL102") == ["VL102"]  # was: nothing (the config's ignore won)
    assert codes("--ignore", "VL103") == ["VL101"]  # was: VL101, VL102 (the config's ignore was dropped)
    assert codes("--extend-ignore", "VL101") == ["VL103"]
    assert codes("--extend-select", "VL102") == ["VL101", "VL102", "VL103"]
    (here / ".vllm-lint.toml").write_text('select = ["VL1"]\nignore = ["VL1"]\nextend-select = ["VL101"]\n')
    assert codes() == ["VL101"]  # within one layer the more specific prefix wins


def test_per_file_ignores_are_relative_to_the_configuration_file(run_cli, here, monkeypatch):
    """Defect 9: the same result from the repository root and from inside k8s/."""
    (here / "k8s").mkdir()
    (here / "k8s" / "a.sh").write_text(SCRIPT)
    (here / "pyproject.toml").write_text('[tool.vllm-lint]\nper-file-ignores = { "k8s/*" = ["VL101"] }\n')
    root = [line.split()[1] for line in concise(run_cli("-t", "0.27.1", "--output-format", "concise", "."))]
    monkeypatch.chdir(here / "k8s")
    inside = [line.split()[1] for line in concise(run_cli("-t", "0.27.1", "--output-format", "concise", "."))]
    assert root == inside == ["VL102"]


def test_force_exclude_skips_excluded_files_named_explicitly(run_cli, here):
    (here / "vendor" / "deep").mkdir(parents=True)
    (here / "vendor" / "deep" / "up.sh").write_text(SCRIPT)
    (here / "a.sh").write_text(SCRIPT)
    (here / ".vllm-lint.toml").write_text('extend-exclude = ["vendor/"]\n')
    named = ["a.sh", "vendor/deep/up.sh"]
    r = run_cli("-t", "0.27.1", "--output-format", "concise", *named)
    assert any(line.startswith("vendor/") for line in concise(r))  # explicit files are linted...
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "--force-exclude", *named)
    assert concise(r) and not any(line.startswith("vendor/") for line in concise(r))  # ...unless forced
    r = run_cli("-t", "0.27.1", "--fix", "--force-exclude", *named)
    assert (here / "vendor" / "deep" / "up.sh").read_text() == SCRIPT
    (here / ".vllm-lint.toml").write_text('extend-exclude = ["vendor/"]\nforce-exclude = true\n')
    r = run_cli("-t", "0.27.1", "--output-format", "concise", *named)
    assert not any(line.startswith("vendor/") for line in concise(r))


def test_the_pre_commit_hook_passes_force_exclude():
    import yaml

    repo = Path(__file__).resolve().parents[2]
    hook = yaml.safe_load((repo / ".pre-commit-hooks.yaml").read_text())[0]
    assert hook["entry"].split()[1:] == ["--force-exclude"]


# ------------------------------------------------------------------ suppressions


def test_ignore_file_honours_its_codes(run_cli, here):
    """Defect 10: `ignore-file[VL101]` silenced every code."""
    (here / "a.sh").write_text("# vllm-lint: ignore-file[VL101]\n" + SCRIPT)
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "a.sh")
    assert [line.split()[1] for line in concise(r)] == ["VL102"]
    (here / "a.sh").write_text("# vllm-lint: ignore-file\n" + SCRIPT)
    assert concise(run_cli("-t", "0.27.1", "--output-format", "concise", "a.sh")) == []


def test_suppression_reasons_and_ignore_noqa(run_cli, here):
    (here / "a.sh").write_text("vllm serve m --swap-space 4  # vllm-lint: ignore[VL101] kept for the 0.8 fleet\n")
    assert concise(run_cli("-t", "0.27.1", "--output-format", "concise", "a.sh")) == []
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "--ignore-noqa", "a.sh")
    assert [line.split()[1] for line in concise(r)] == ["VL101"]
    (here / "b.sh").write_text("# vllm-lint: ignore-file -- vendored\nvllm serve m --swap-space 4\n")
    assert concise(run_cli("-t", "0.27.1", "--output-format", "concise", "b.sh")) == []
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "--ignore-noqa", "b.sh")
    assert [line.split()[1] for line in concise(r)] == ["VL101"]


def test_add_noqa_works_with_a_warm_cache(run_cli, here, monkeypatch):
    """Defect 2: a lint filled the result cache, and --add-noqa then added nothing."""
    monkeypatch.delenv("VLLM_LINT_NO_CACHE")
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(here / "cache"))
    (here / "a.sh").write_text("vllm serve m --swap-space 4\n")
    assert run_cli("-t", "0.27.1", "a.sh").exit_code == 1
    assert run_cli("-t", "0.27.1", "a.sh").exit_code == 1  # answered by the cache
    r = run_cli("-t", "0.27.1", "--add-noqa", "a.sh")
    assert "Added 1 suppression comment to 1 file." in r.stderr
    assert "# vllm-lint: ignore[VL101]" in (here / "a.sh").read_text()


# ------------------------------------------------------------------ baseline (defect 5)


def test_baseline_survives_a_release_bump(run_cli, here):
    (here / "a.sh").write_text(SCRIPT)
    db = shipped_db()
    assert run_cli("--db", db, "-t", "0.32", "--baseline", "b.json", "--write-baseline", "a.sh").exit_code == 0
    r = run_cli("--db", db, "-t", "0.33", "--baseline", "b.json", "--output-format", "concise", "a.sh")
    assert r.exit_code == 0 and concise(r) == [], r.stdout
    doc = json.loads((here / "b.json").read_text())
    assert all("0.32" not in json.dumps(e["fingerprint"]) for e in doc["findings"])
    # the same option on a different line content is a new finding
    (here / "a.sh").write_text(SCRIPT.replace("--swap-space 4", "--swap-space 8"))
    r = run_cli("--db", db, "-t", "0.33", "--baseline", "b.json", "--output-format", "concise", "a.sh")
    assert [line.split()[1] for line in concise(r)] == ["VL101"]


# ------------------------------------------------------------------ lifecycle and presets


def test_breaking_only_keeps_what_the_target_refuses(run_cli, here):
    (here / "a.sh").write_text(SCRIPT + "vllm serve m --port 1 --port 2\n")
    full = concise(run_cli("-t", "0.27.1", "--output-format", "concise", "a.sh"))
    assert any(" warning: " in line for line in full)
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "--breaking-only", "a.sh")
    assert concise(r) and all(" error: " in line for line in concise(r))
    assert len(concise(r)) == sum(" error: " in line for line in full)


def test_preview_rules_run_only_with_preview(run_cli, here, monkeypatch):
    from vllm_lint.rules import base

    reg = dict(base.registry())
    rule = base.Rule(code="VL599", name="preview-probe", summary="a rule in preview", severity="warning", preview=True)
    rule.check(lambda ctx: [ctx.diag(rule, "probe", ctx.launch.span)] if ctx.launch else [])
    monkeypatch.setattr(base, "_REGISTRY", {**reg, "VL599": rule})
    (here / "a.sh").write_text("vllm serve m --port 1\n")

    def codes(*args):
        return [line.split()[1] for line in concise(run_cli("-t", "0.27.1", "--output-format", "concise", *args, "a.sh"))]
    assert codes() == [] and codes("--select", "VL599") == []
    assert codes("--preview") == ["VL599"]
    (here / ".vllm-lint.toml").write_text("preview = true\n")
    assert codes() == ["VL599"] and codes("--no-preview") == []


# ------------------------------------------------------------------ bad paths (defect 11)


def test_an_unreadable_file_named_on_the_command_line_is_one_vl001_line(run_cli, here, monkeypatch):
    (here / "secret.sh").write_text(SCRIPT)
    real_open, real_access = os.open, os.access

    def guarded(file, flags, *a, **k):  # (the engine opens a file with os.open: fsutil.open_regular)
        if str(file).endswith("secret.sh"):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, flags, *a, **k)

    monkeypatch.setattr(os, "open", guarded)
    monkeypatch.setattr(os, "access", lambda p, m, *a, **k: False if str(p).endswith("secret.sh") else real_access(p, m))
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "secret.sh")
    assert r.exit_code == 1 and r.stderr == ""
    assert concise(r) == ["secret.sh:1:1: VL001 error: cannot read file: Permission denied"]


def test_a_missing_path_does_not_repeat_its_name(run_cli, here):
    r = run_cli("--output-format", "concise", "nope.yaml")
    assert concise(r) == ["nope.yaml:1:1: VL001 error: no such file or directory"]


# ------------------------------------------------------------------ help and version (defect 21)


def test_help_lists_version_and_the_usage_has_no_lint_word(run_cli):
    r = run_cli("--help")
    assert r.exit_code == 0 and "--version" in r.stdout
    usage = r.stdout.splitlines()[0]
    assert usage.endswith(" [OPTIONS] [PATHS]...") and " lint " not in usage


def test_completion_offers_commands_codes_option_names_and_releases(run_cli, synth_db_path, monkeypatch):
    from click.shell_completion import ShellComplete

    from vllm_lint.cli.app import main

    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))

    def complete(words, incomplete):
        return [c.value for c in ShellComplete(main, {}, "vllm-lint", "_VLLM_LINT_COMPLETE").get_completions(
            words, incomplete)]
    assert "flags" in complete([], "fl") and "audit" in complete([], "a")
    assert "--fix" in complete([], "--fi")
    assert complete(["rule"], "VL10") == [f"VL10{i}" for i in range(1, 10)]
    assert "VL1,VL201" in complete(["--select"], "VL1,VL20")
    assert "0.27.1" in complete(["-t"], "0.2") and "0.27" in complete(["-t"], "0.2")
    assert "swap-space" in complete(["flags", "show"], "swap")
    assert "0.8.5" in complete(["audit", "--from"], "0.8") and "0.10.0" in complete(["flags", "list", "--version"], "0.1")


# ------------------------------------------------------------------ bad input messages (defect 18)


def test_bad_input_messages_say_what_is_wrong(run_cli, here):
    (here / "u16.sh").write_bytes("vllm serve m --swap-space 4\n".encode("utf-16"))
    (here / "dangling.sh").symlink_to(here / "gone.sh")
    (here / "bom.sh").write_bytes(b"\xef\xbb\xbfvllm serve m --swap-space 4\n")
    (here / "bad.yaml").write_text("a: [b\n")
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "u16.sh", "dangling.sh", "bom.sh", "bad.yaml")
    out = concise(r)
    assert "u16.sh:1:1: VL001 error: UTF-16 text: vllm-lint reads UTF-8 (convert it: iconv -f UTF-16 -t UTF-8)" in out
    assert "dangling.sh:1:1: VL001 error: broken symbolic link (its target does not exist)" in out
    assert any(line.startswith("bom.sh:1:14: VL101") for line in out)  # the BOM is no column
    yaml_line = next(line for line in out if line.startswith("bad.yaml"))
    assert "invalid YAML" not in yaml_line and yaml_line.count("yaml") == 2  # path and "cannot parse yaml"


def test_a_comment_after_an_exec_form_cmd_is_reported(run_cli, here):
    """Defect 20: Docker reads `CMD [...]  # x` in shell form; the linter said nothing."""
    (here / "Dockerfile").write_text('FROM vllm/vllm-openai:v0.27.1\n'
                                     'CMD ["m", "--swap-space", "4"]  # vllm-lint: ignore[VL101]\n')
    r = run_cli("--output-format", "concise", "Dockerfile")
    assert [line.split()[1:3] for line in concise(r)] == [["VL002", "warning:"]]
    assert "shell form" in r.stdout and r.exit_code == 1
    (here / "Dockerfile").write_text('FROM vllm/vllm-openai:v0.27.1\n# vllm-lint: ignore[VL101]\n'
                                     'CMD ["m", "--swap-space", "4"]\n')
    assert concise(run_cli("--output-format", "concise", "Dockerfile")) == []


def test_rule_docs_keep_their_line_continuations():
    """Issue 18 item 19: a docstring's `\\` + newline was a string continuation (a triple space in
    the rendered example)."""
    import re

    from vllm_lint.rules.base import registry

    for rule in registry().values():
        for line in rule.doc.splitlines():
            assert not re.search(r"\S {3,}--", line), (rule.code, line)


def test_vl109_message_agrees_in_number(run_cli, here):
    (here / "a.sh").write_text("vllm serve m \\\n  --port 1\n  --max-model-len 4096\n")
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "a.sh")
    line = next(x for x in concise(r) if " VL109 " in x)
    assert "is cut off" in line and "never reaches vLLM" in line


def test_an_out_of_range_gpu_memory_utilization_is_reported(run_cli, here):
    """Issue 18 item 19 (the range rule is VL410's): `--gpu-memory-utilization 1.5` passed silently."""
    (here / "a.sh").write_text("vllm serve m --gpu-memory-utilization 1.5\n")
    r = run_cli("--db", shipped_db(), "-t", "0.27.1", "--output-format", "concise", "a.sh")
    assert any(" VL410 " in line and "gpu-memory-utilization" in line for line in concise(r)), r.stdout
    assert r.exit_code == 1
