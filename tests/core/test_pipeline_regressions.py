"""Regressions of issue 14's three bugs, each from a concern with two owners or two meanings:
``Settings.source`` meaning both "where the configuration came from" and "-t was given"; the audit
running its own copy of the lint pipeline (without the YAML config mode); and the result cache not
knowing the other files an analysis read."""

from __future__ import annotations

import json
import os


def _codes(output: str) -> list[tuple[str, str]]:
    return sorted((os.path.basename(d["filename"]), d["code"]) for d in json.loads(output))


def test_target_version_keeps_the_configuration_folder_for_excludes(run_cli, tmp_path, monkeypatch):
    proj = tmp_path / "proj"
    (proj / "gen").mkdir(parents=True)
    (proj / ".vllm-lint.toml").write_text('exclude = ["gen/a.sh"]\n')
    (proj / "gen" / "a.sh").write_text("vllm serve m --swap-space 4\n")
    (proj / "b.sh").write_text("vllm serve m --swap-space 4\n")
    monkeypatch.chdir(tmp_path)  # a parent folder: excludes are relative to the configuration's
    without_t = _codes(run_cli("--output-format", "json", "proj").stdout)
    with_t = _codes(run_cli("--output-format", "json", "-t", "0.27.1", "proj").output)
    assert without_t == with_t == [("b.sh", "VL101")]


def test_target_version_origin_is_told_in_verbose_output(run_cli, tmp_path):
    (tmp_path / ".vllm-lint.toml").write_text('target-version = "0.27.1"\n')
    p = tmp_path / "run.sh"
    p.write_text("vllm serve m --swap-space 4\n")
    assert "(configuration)" in run_cli("--verbose", str(p)).output
    assert "(--target-version)" in run_cli("--verbose", "-t", "0.27.1", str(p)).output
    # -t on the command line wins over the file, and is named as the origin even with --config
    cfg = tmp_path / ".vllm-lint.toml"
    assert "(--target-version)" in run_cli("--verbose", "--config", str(cfg), "-t", "0.27.1", str(p)).output


def test_audit_reads_a_named_vllm_config_file_as_lint_does(run_cli, tmp_path):
    cfg = tmp_path / "vllm-config.yaml"
    cfg.write_text("model: m\nswap-space: 4\n")
    lint = run_cli("--output-format", "json", "-t", "0.27.1", str(cfg))
    assert _codes(lint.output) == [("vllm-config.yaml", "VL101")]
    audit = run_cli("audit", "--from", "0.8.5", "--to", "0.27.1", "--format", "json", str(cfg))
    report = json.loads(audit.output)
    assert audit.exit_code == 1, audit.output
    (launch,) = [la for f in report["files"] for la in f["launches"]]
    assert [b["name"] for b in launch["breaks"]] == ["--swap-space"] and report["summary"]["breaks"] == 1


def test_cache_is_invalidated_when_a_local_model_config_changes(run_cli, tmp_path, monkeypatch):
    from vllm_lint.knowledge import models

    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(models, "hf_cache_dirs", lambda: [tmp_path / "hf-home" / "hub"])
    m = tmp_path / "m"
    m.mkdir()
    config = {"architectures": ["LlamaForCausalLM"], "num_attention_heads": 32, "num_key_value_heads": 32,
              "hidden_size": 4096, "num_hidden_layers": 2}
    (m / "config.json").write_text(json.dumps(config))
    run = tmp_path / "serve.sh"
    run.write_text("vllm serve ./m -tp 3\n")
    monkeypatch.chdir(tmp_path)

    def lint(*extra):
        models.clear_cache()  # each run is a new process
        return [c for _, c in _codes(run_cli("--output-format", "json", "-t", "0.27.1", *extra, "serve.sh").output)]

    assert "VL401" in lint()
    assert "VL401" in lint()  # answered by the cache
    (m / "config.json").write_text(json.dumps({**config, "num_attention_heads": 30, "num_key_value_heads": 30}))
    assert "VL401" not in lint("--no-cache")
    assert "VL401" not in lint()  # the record named config.json with its content key: a miss now
    os.utime(run, ns=(run.stat().st_atime_ns, run.stat().st_mtime_ns + 7_000_000_000))
    (m / "config.json").write_text(json.dumps(config))
    assert "VL401" in lint()  # by content (mtime changed), the read file is checked too


def test_analysis_of_unsaved_bytes_does_not_read_the_file(synth_db_path, tmp_path):
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    linter = Linter(Database(synth_db_path), Settings(target_version="0.27.1"), select_rules([], []))
    missing = tmp_path / "not-written-yet.sh"
    analysis = linter.analyse(missing, b"vllm serve m --swap-space 4\n")
    assert not missing.exists()
    assert analysis.format == "shell" and analysis.skipped is None
    assert [d.code for d in analysis.diagnostics] == ["VL101"]
    (la,) = analysis.launches
    assert la.target == "0.27.1" and la.target_source == "--target-version"
    assert [a.written for a in la.args if not a.positional] == ["--swap-space"]
    assert analysis.edits and analysis.reads == ()
    skipped = linter.analyse(tmp_path / "notes.txt", b"nothing here\n")
    assert skipped.skipped == "no-format" and skipped.diagnostics == []


def test_add_noqa_reads_a_named_vllm_config_file_as_lint_does(run_cli, tmp_path, monkeypatch):
    # the same family as the audit's bug: --add-noqa analysed the file again in the walk's mode,
    # found nothing, and added nothing; with the cache, a second run answers from the stat index
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    cfg = tmp_path / "vllm-config.yaml"
    cfg.write_text("model: m\nswap-space: 4\n")
    assert _codes(run_cli("--output-format", "json", "-t", "0.27.1", str(cfg)).output) == [("vllm-config.yaml", "VL101")]
    r = run_cli("-t", "0.27.1", "--add-noqa", str(cfg))
    assert "Added 1 suppression comment to 1 file." in r.output
    assert cfg.read_text() == "model: m\nswap-space: 4  # vllm-lint: ignore[VL101]\n"
    assert run_cli("--output-format", "json", "-t", "0.27.1", str(cfg)).output.strip() == "[]"


def test_add_noqa_after_a_cached_run(run_cli, tmp_path, monkeypatch):
    # a result the cache's stat index answers carries no format: --add-noqa screens the bytes
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4\n")
    run_cli("-t", "0.27.1", str(p))
    assert "Added 1 suppression comment" in run_cli("-t", "0.27.1", "--add-noqa", str(p)).output
    assert p.read_text() == "vllm serve m --swap-space 4  # vllm-lint: ignore[VL101]\n"
