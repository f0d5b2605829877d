"""vLLM --config YAML files: linted at the release of the launch that names them."""

from __future__ import annotations

import json


def test_config_file_linted_at_referencing_launch_release(run_cli, tmp_path, monkeypatch):
    (tmp_path / "cfg.yaml").write_text("model: m\ntensor-parallel-size: 2\nswap_space: 4\ncuda-graph-sizes: [1, 2]\n")
    run = tmp_path / "run.sh"
    run.write_text("pip install vllm==0.10.0\nvllm serve --config cfg.yaml --port 1\n")
    r = run_cli("--output-format", "json", str(run))
    got = {(d["filename"].rsplit("/", 1)[-1], d["code"], d["location"]["row"], d["target_version"])
           for d in json.loads(r.output)}
    assert got == {("cfg.yaml", "VL106", 4, "0.10.0")}
    r = run_cli("-t", "0.27.1", "--fix", str(run))
    assert (tmp_path / "cfg.yaml").read_text() == "model: m\ntensor-parallel-size: 2\ncudagraph-capture-sizes: [1, 2]\n"


def test_config_files_glob_setting(run_cli, tmp_path):
    (tmp_path / ".vllm-lint.toml").write_text('config-files = ["serving/*.yaml"]\ntarget-version = "0.27.1"\n')
    (tmp_path / "serving").mkdir()
    (tmp_path / "serving" / "llama.yaml").write_text("swap-space: 4\n")
    r = run_cli("--output-format", "json", str(tmp_path))
    assert [d["code"] for d in json.loads(r.output)] == ["VL101"]


def test_keyed_rename_message_uses_key_spelling(run_cli, tmp_path):
    p = tmp_path / "cfg.yaml"
    p.write_text("model: m\ncuda_graph_sizes: [8]\n")
    r = run_cli("-t", "0.27.1", str(p))
    assert "renamed to `cudagraph_capture_sizes`" in r.output
