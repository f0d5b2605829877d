"""Rules end to end through the CLI against the synthetic database: what a rule's fixture folder
(tests/rules/<CODE>/) cannot hold: several rules in one file, fixes across rules, settings and
neighbouring files that would reach every case of a folder, and databases changed per test."""

from __future__ import annotations

import json
import os
import stat

import synthetic_db

SCRIPT = """#!/bin/bash
export VLLM_USE_V1=1
vllm serve meta-llama/Llama-3.1-8B-Instruct \\
  --tensor_parallel_size 2 \\
  --swap-space 16 \\
  --num-scheduler-steps 8 \\
  --cuda-graph-sizes 1 2 4 \\
  --dtype fp16 \\
  --max-model 8192 \\
  --guided-decoding-backend=xgrammar \\
  --port 8000
"""


def findings(run_cli, path, *extra):
    r = run_cli("--output-format", "json", *extra, str(path))
    assert r.exit_code in (0, 1), r.output
    return [(d["code"], d["location"]["row"], d["option"]) for d in json.loads(r.stdout)]


def lint_with_db(tmp_path, monkeypatch, mutate, *args):
    """Lint (JSON findings) against a synthetic database changed by ``mutate(db_dir)``."""
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    db = synthetic_db.build(tmp_path / "db")
    mutate(db)
    synthetic_db.compile_index(db)
    monkeypatch.setenv("VLLM_LINT_DB", str(db))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")
    return json.loads(CliRunner().invoke(main, ["--output-format", "json", *args]).output)


def test_each_code_on_its_line(run_cli, tmp_path):
    p = tmp_path / "deploy.sh"
    p.write_text(SCRIPT)
    got = findings(run_cli, p, "-t", "0.27.1")
    assert ("VL201", 2, "VLLM_USE_V1") in got
    assert ("VL101", 5, "--swap-space") in got
    assert ("VL101", 6, "--num-scheduler-steps") in got
    assert ("VL102", 7, "--cuda-graph-sizes") in got
    assert ("VL105", 8, "--dtype") in got
    assert ("VL107", 9, "--max-model-len") in got
    assert ("VL102", 10, "--guided-decoding-backend") in got
    assert not [g for g in got if g[1] == 4], "underscore spelling is accepted since 0.5.1"


def test_fix_is_idempotent_keeps_mode_and_other_bytes(run_cli, tmp_path):
    p = tmp_path / "deploy.sh"
    p.write_bytes(SCRIPT.encode())
    os.chmod(p, 0o751)
    r = run_cli("-t", "0.27.1", "--fix", str(p))
    assert r.exit_code == 1  # unfixable findings remain
    fixed = p.read_text()
    assert "--cudagraph-capture-sizes 1 2 4" in fixed and "--swap-space" not in fixed
    assert "--structured-outputs-config.backend=xgrammar" in fixed and "--max-model-len 8192" in fixed
    assert "--num-scheduler-steps 8" in fixed  # not a recorded no-op: reported, not deleted
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o751
    before = p.read_bytes()
    run_cli("-t", "0.27.1", "--fix", str(p))
    assert p.read_bytes() == before
    # every line that no fix touched is byte-identical
    untouched = [l for l in SCRIPT.splitlines() if not any(k in l for k in
                 ("swap-space", "cuda-graph", "max-model", "guided"))]
    for line in untouched:
        assert line in fixed.splitlines()


def test_fix_keeps_crlf(run_cli, tmp_path):
    p = tmp_path / "a.sh"
    p.write_bytes(b"vllm serve m --cuda-graph-sizes 8 --port 1\r\n")
    run_cli("-t", "0.27.1", "--fix", str(p))
    assert p.read_bytes() == b"vllm serve m --cudagraph-capture-sizes 8 --port 1\r\n"


def test_diff_writes_nothing(run_cli, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --cuda-graph-sizes 8\n")
    r = run_cli("-t", "0.27.1", "--diff", str(p))
    assert "+vllm serve m --cudagraph-capture-sizes 8" in r.output
    assert p.read_text() == "vllm serve m --cuda-graph-sizes 8\n"


def test_suppression_comments(run_cli, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4  # vllm-lint: ignore[VL101]\n"
                 "# vllm-lint: ignore\nvllm serve m --num-scheduler-steps 2\n"
                 "vllm serve m --num-scheduler-steps 3  # vllm-lint: ignore[VL2]\n")
    got = findings(run_cli, p, "-t", "0.27.1")
    assert [g[1] for g in got] == [4]
    q = tmp_path / "b.sh"
    q.write_text("# vllm-lint: ignore-file\nvllm serve m --swap-space 4\n")
    assert findings(run_cli, q, "-t", "0.27.1") == []


def test_select_ignore_and_exit_codes(run_cli, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4 --dtype fp16\n")
    assert {c for c, *_ in findings(run_cli, p, "-t", "0.27.1", "--select", "VL105")} == {"VL105"}
    assert {c for c, *_ in findings(run_cli, p, "-t", "0.27.1", "--ignore", "VL1")} == set()
    assert run_cli("-t", "0.27.1", "--exit-zero", str(p)).exit_code == 0
    ok = tmp_path / "ok.sh"
    ok.write_text("vllm serve m --port 1\n")
    assert run_cli("-t", "0.27.1", str(ok)).exit_code == 0
    assert run_cli("--select", "XX9", str(ok)).exit_code == 2
    assert run_cli("-t", "9.9.9", str(ok)).exit_code == 2


def test_target_from_minor_and_config(run_cli, tmp_path):
    (tmp_path / ".vllm-lint.toml").write_text('target-version = "0.10"\n')
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --cuda-graph-sizes 8\n")
    got = findings(run_cli, p)
    assert got == [("VL106", 1, "--cuda-graph-sizes")]


def test_config_errors_are_one_line(run_cli, tmp_path):
    (tmp_path / ".vllm-lint.toml").write_text('target-versoin = "0.10"\n')
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m\n")
    r = run_cli(str(p))
    assert r.exit_code == 2 and "unknown setting 'target-versoin'" in r.output and "did you mean" in r.output
    (tmp_path / ".vllm-lint.toml").write_text('select = "VL1"\n')
    r = run_cli(str(p))
    assert r.exit_code == 2 and "must be a list" in r.output


def test_version_hint_from_requirements_pin(run_cli, tmp_path):
    (tmp_path / "requirements.txt").write_text("torch\nvllm==0.8.5\n")
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --async-scheduling\n")
    got = findings(run_cli, p)
    assert got == [("VL104", 1, "--async-scheduling")]


def test_missing_path_and_directory_walk(run_cli, tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.sh").write_text("vllm serve m --swap-space 1\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "b.sh").write_text("vllm serve m --swap-space 1\n")
    (tmp_path / ".gitignore").write_text("ignored/\n")
    (tmp_path / "ignored").mkdir()
    (tmp_path / "ignored" / "c.sh").write_text("vllm serve m --swap-space 1\n")
    r = run_cli("-t", "0.27.1", "--output-format", "json", str(tmp_path))
    files = {os.path.basename(d["filename"]) for d in json.loads(r.output)}
    assert files == {"a.sh"}
    r = run_cli(str(tmp_path / "nope.sh"))
    assert r.exit_code == 1 and "VL001" in r.output


def test_statistics_and_quiet(run_cli, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4 --num-scheduler-steps 2\n")
    r = run_cli("-t", "0.27.1", "--statistics", str(p))
    assert "2\tVL101" in r.output
    r = run_cli("-t", "0.27.1", "-q", str(p))
    assert "Found" not in r.output


def test_rule_docs(run_cli):
    r = run_cli("rule", "VL102")
    assert r.exit_code == 0 and "## What it does" in r.output and "Fix safety" in r.output
    assert run_cli("rule", "renamed-option").exit_code == 0
    assert run_cli("rule", "VL999").exit_code == 2


def test_removed_option_read_as_abbreviation_of_another_is_an_error(tmp_path, monkeypatch):
    def add_option(db):
        rec = json.loads((db / "releases" / "0.27.1.json").read_text())
        rec["options"].append(synthetic_db.opt("--num-scheduler-steps-max", type="int"))
        synthetic_db.write_json(db / "releases" / "0.27.1.json", rec)

    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --num-scheduler-steps 8\n")
    (d,) = lint_with_db(tmp_path, monkeypatch, add_option, "-t", "0.27.1", "--fix", str(p))
    assert d["code"] == "VL107" and d["severity"] == "error" and d["fix"] is None
    assert "silently reads it" in d["message"]
    assert p.read_text() == "vllm serve m --num-scheduler-steps 8\n"


def test_curated_overlay_without_successor_wins_over_deprecation_text(tmp_path, monkeypatch):
    def no_successor(db):
        ov = json.loads((db / "overlays" / "renames.json").read_text())
        ov["options"]["--cuda-graph-sizes"] = {"successor": None, "evidence": "test"}
        synthetic_db.write_json(db / "overlays" / "renames.json", ov)

    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --cuda-graph-sizes 8\n")
    (d,) = lint_with_db(tmp_path, monkeypatch, no_successor, "-t", "0.10.0", str(p))
    assert d["code"] == "VL106" and d["fix"] is None


def test_json_fix_positions_after_fix_refer_to_the_fixed_text(run_cli, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m \\\n  --swap-space 4 \\\n  --max-model 8 \\\n  --port 1\n")
    # --swap-space deleted (safe); the abbreviation is expanded; unsafe nothing
    r = run_cli("-t", "0.27.1", "--fix", "--select", "VL101,VL107", "--output-format", "json", str(p))
    assert json.loads(r.output) == []
    p.write_text("vllm serve m \\\n  --swap-space 4 \\\n  --dtype fp16 \\\n  --max-model 8\n")
    r = run_cli("-t", "0.27.1", "--fix", "--select", "VL101,VL105", "--output-format", "json", str(p))
    (d,) = json.loads(r.output)
    assert d["code"] == "VL105" and d["location"]["row"] == 2  # line 2 of the fixed file


def test_async_engine_args_fields(tmp_path, monkeypatch):
    """AsyncEngineArgs adds fields of its own (disable_log_requests until 0.10.x): accepted where
    the release has them, removed (not "unknown to every release") after; LLM(...) never had them."""
    from click.testing import CliRunner

    import synthetic_db
    from vllm_lint.cli.app import main
    from vllm_lint.surface.db import compile_index, write_json

    old = synthetic_db._record("0.8.5", synthetic_db.BASE, {})
    old["async_engine_args"] = ["disable_log_requests"]
    new = synthetic_db._record("0.27.1", synthetic_db.BASE, {})
    new["async_engine_args"] = ["enable_log_requests"]
    (tmp_path / "db" / "releases").mkdir(parents=True)
    write_json(tmp_path / "db" / "releases" / "0.8.5.json", old)
    write_json(tmp_path / "db" / "releases" / "0.27.1.json", new)
    compile_index(tmp_path / "db")
    monkeypatch.setenv("VLLM_LINT_DB", str(tmp_path / "db"))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")
    p = tmp_path / "engine.py"
    p.write_text("from vllm.engine.arg_utils import AsyncEngineArgs\nfrom vllm import LLM\n"
                 "a = AsyncEngineArgs(model='m', disable_log_requests=True)\n"
                 "b = AsyncEngineArgs(model='m', enable_log_requests=True)\n"
                 "c = LLM(model='m', enable_log_requests=True)\n")

    def codes(target):
        r = CliRunner().invoke(main, ["--output-format", "json", "-t", target, str(p)], catch_exceptions=False)
        return [(d["code"], d["location"]["row"]) for d in json.loads(r.stdout)]

    assert codes("0.27.1") == [("VL101", 3), ("VL103", 5)]
    assert codes("0.8.5") == [("VL104", 4), ("VL103", 5)]


def test_finding_in_a_multi_line_yaml_scalar_points_at_its_word(run_cli, tmp_path):
    """A multi-line double-quoted / plain scalar maps back line by line (its folds map to
    nothing): the finding points at the option where it is written, never at 1:1."""
    p = tmp_path / "pod.yaml"
    p.write_text("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: v\n    image: vllm/vllm-openai:v0.27.1\n"
                 "    command:\n    - sh\n    - -c\n    - \"echo start;\n       vllm serve m --swap-space 4\"\n")
    q = tmp_path / "dstack.yml"
    q.write_text("type: task\nimage: vllm/vllm-openai:v0.27.1\ncommands:\n  - vllm serve m\n    --swap-space 4\n")
    for path, row, column in ((p, 11, 21), (q, 5, 5)):
        r = run_cli("--output-format", "json", str(path))
        got = [(d["code"], d["location"]["row"], d["location"]["column"]) for d in json.loads(r.stdout)]
        assert got == [("VL101", row, column)], (path.name, r.output)


def test_abbreviation_of_a_removed_option_resolves_through_history(run_cli, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --cuda-graph 8 --swap-sp 4\n")
    got = findings(run_cli, p, "-t", "0.27.1")
    assert ("VL102", 1, "--cuda-graph-sizes") in got and ("VL101", 1, "--swap-space") in got
    run_cli("-t", "0.27.1", "--fix", str(p))
    assert p.read_text() == "vllm serve m --cudagraph-capture-sizes 8\n"


def test_no_fix_values_in_the_overlay_block_the_rename(tmp_path, monkeypatch):
    def no_fix_value(db):
        ov = json.loads((db / "overlays" / "renames.json").read_text())
        ov["options"]["--cuda-graph-sizes"]["no_fix_values"] = ["[odd]"]
        synthetic_db.write_json(db / "overlays" / "renames.json", ov)

    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --cuda-graph-sizes '[odd]'\n")
    (d,) = lint_with_db(tmp_path, monkeypatch, no_fix_value, "-t", "0.27.1", str(p))
    assert d["code"] == "VL102" and d["fix"] is None
