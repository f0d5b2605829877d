"""Model facts, layout reading, fixes through the CLI, --verbose skip reasons, --online (mocked)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest

from vllm_lint.knowledge import models
from vllm_lint.knowledge.layout import human_int

_REAL_HF_CACHE_DIRS = models.hf_cache_dirs


def findings(lint, path, *extra, target="0.27.1"):
    r = lint("--output-format", "json", "-t", target, *extra, str(path))
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.output)


# ------------------------------------------------------------------------- shipped table


def test_table_rows_have_sources_and_no_unverified():
    path = models._table_path()
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines(keepends=True) if not ln.startswith("#")]
    rows = list(csv.DictReader(lines, delimiter="\t"))
    assert len(rows) >= 130
    seen = set()
    for r in rows:
        assert r["source"].strip(), r["model"]
        assert "UNVERIFIED" not in r["source"], r["model"]
        assert r["remote_code"] in ("yes", "no", ""), r["model"]
        assert bool(r["remote_code"]) == bool(r["remote_code_source"].strip()), f"{r['model']}: remote_code unsourced"
        for rid in r["hf_repo_ids"].split(";"):
            assert rid.lower() not in seen, f"{rid} in two rows"
            seen.add(rid.lower())
        heads, kv = r["num_attention_heads"], r["num_key_value_heads"]
        if heads and kv:
            assert int(heads) % int(kv) == 0, r["model"]
        if r["experts_per_token"]:
            assert int(r["experts_per_token"]) <= int(r["moe_routed_experts"])


def test_table_facts():
    t = models.table()
    mav = t["meta-llama/llama-4-maverick-17b-128e-instruct-fp8"]
    assert mav.routed_experts == 128 and mav.experts_per_token == 1 and round(mav.activation_density, 4) == 0.0078
    r1 = t["deepseek-ai/deepseek-r1"]
    assert r1.mla and r1.is_moe and r1.block_fp8
    assert not t["meta-llama/llama-3.1-8b-instruct"].is_moe
    assert "models.tsv" in r1.source


def test_lookup_is_case_insensitive_and_unknown_names_stay_unknown():
    assert models.resolve("qwen/qwen2.5-7b-instruct")[0].heads == 28
    facts, why = models.resolve("EleutherAI/gpt-neox-20b")
    assert facts is None and "--online" in why


def test_table_loaded_once(monkeypatch):
    models.table()
    monkeypatch.setattr(models, "_table_file", lambda: (_ for _ in ()).throw(AssertionError("reloaded")))
    assert models.table()


def test_remote_code_is_known_only_for_the_repositories_a_row_lists():
    assert models.remote_code("deepseek-ai/DeepSeek-V3")[0] is True
    ships, source = models.remote_code("META-LLAMA/Llama-3.1-8B-Instruct")
    assert ships is False and "auto_map" in source
    assert models.remote_code("someone/Llama-3.1-8B-Instruct-abliterated") is None  # a re-upload: not read


# ------------------------------------------------------------------------- config.json sources

DEEPSEEK_LIKE = {"architectures": ["DeepseekV3ForCausalLM"], "num_attention_heads": 128, "num_key_value_heads": 128,
                 "kv_lora_rank": 512, "n_routed_experts": 256, "num_experts_per_tok": 8, "hidden_size": 7168,
                 "max_position_embeddings": 163840,
                 "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}


def test_facts_from_config_multimodal_and_rope():
    f = models.facts_from_config({"architectures": ["Llama4ForConditionalGeneration"], "text_config": {
        "num_attention_heads": 40, "num_key_value_heads": 8, "num_local_experts": 128, "num_experts_per_tok": 1,
        "max_position_embeddings": 1048576}}, "x", "test")
    assert f.heads == 40 and f.kv_heads == 8 and f.routed_experts == 128 and f.mla is False
    y = models.facts_from_config({"num_attention_heads": 28, "num_key_value_heads": 4, "max_position_embeddings": 32768,
                                  "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
                                                   "original_max_position_embeddings": 32768}}, "y", "test")
    assert y.max_positions == 131072
    d = models.facts_from_config(DEEPSEEK_LIKE, "d", "test")
    assert d.mla and d.kv_heads is None and d.block_fp8


def test_local_model_directory(lint, tmp_path):
    mdir = tmp_path / "models" / "my-moe"
    mdir.mkdir(parents=True)
    (mdir / "config.json").write_text(json.dumps({**DEEPSEEK_LIKE, "num_attention_heads": 28}))
    p = tmp_path / "run.sh"
    p.write_text(f"vllm serve {mdir} -tp 8\n")
    codes = {d["code"] for d in findings(lint, p)}
    assert "VL401" in codes


def test_hf_cache_snapshot(lint, tmp_path, monkeypatch):
    home = tmp_path / "hfh"
    snap = home / "hub" / "models--acme--tiny-moe" / "snapshots" / "abc123"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text(json.dumps({"num_attention_heads": 16, "num_key_value_heads": 4,
                                                  "num_local_experts": 256, "num_experts_per_tok": 1,
                                                  "max_position_embeddings": 4096}))
    monkeypatch.setenv("HF_HOME", str(home))
    monkeypatch.setattr(models, "hf_cache_dirs", _REAL_HF_CACHE_DIRS)
    assert models.hf_cache_dirs()[0] == home / "hub"
    p = tmp_path / "run.sh"
    p.write_text("vllm serve acme/tiny-moe -tp 4 --enable-expert-parallel --max-model-len 8192\n")
    codes = sorted(d["code"] for d in findings(lint, p))
    assert codes == ["VL303", "VL403"]


# ------------------------------------------------------------------------- --online (mocked)


class _Resp:
    def __init__(self, status, data):
        self.status_code, self._data = status, data

    def json(self):
        return self._data


def test_online_fetches_and_caches(lint, tmp_path, monkeypatch):
    import requests

    calls = []

    def fake_get(url, headers=None, timeout=None):
        calls.append(url)
        return _Resp(200, {"num_attention_heads": 28, "num_key_value_heads": 4, "max_position_embeddings": 32768})

    monkeypatch.setattr(requests, "get", fake_get)
    p = tmp_path / "run.sh"
    p.write_text("vllm serve acme/online-model -tp 8\n")
    assert not [d for d in findings(lint, p) if d["code"] == "VL401"], "offline by default"
    assert calls == []
    got = findings(lint, p, "--online")
    assert [d["code"] for d in got if d["code"] == "VL401"] == ["VL401"]
    assert calls == ["https://huggingface.co/acme/online-model/resolve/main/config.json"]
    models.clear_cache()
    findings(lint, p, "--online")
    assert len(calls) == 1, "second run reads the user cache"


def test_online_failure_is_silent(lint, tmp_path, monkeypatch):
    import requests

    monkeypatch.setattr(requests, "get", lambda *a, **k: _Resp(404, None))
    p = tmp_path / "run.sh"
    p.write_text("vllm serve acme/missing -tp 7\n")
    r = lint("-t", "0.27.1", "--online", "-v", str(p))
    assert "VL401" not in r.output.split("skipped")[0]
    assert "VL401 skipped" in r.output and "404" in r.output


def test_requests_not_imported_offline(tmp_path, deploy_db_path):
    p = tmp_path / "run.sh"
    p.write_text("vllm serve acme/unknown -tp 8 --enable-expert-parallel\n"
                 "vllm serve deepseek-ai/DeepSeek-R1 -tp 8\n")
    code = ("import sys; from vllm_lint.cli.app import run; sys.argv=['vllm-lint','-t','0.27.1',%r]\n"
            "try:\n    run()\nexcept SystemExit:\n    pass\n"
            "import sys; print('REQUESTS' if 'requests' in sys.modules else 'CLEAN')" % str(p))
    env = {"VLLM_LINT_DB": str(deploy_db_path), "PATH": "/usr/bin:/bin", "VLLM_LINT_NO_CACHE": "1",
           "HF_HOME": str(tmp_path / "hf")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip().endswith("CLEAN"), out.stdout + out.stderr


# ------------------------------------------------------------------------- --verbose skip reasons


def test_verbose_says_which_rules_skipped(lint, tmp_path):
    p = tmp_path / "run.sh"
    p.write_text("vllm serve acme/unknown-model -tp 8 --enable-expert-parallel --gpu-memory-utilization 0.97\n")
    r = lint("-t", "0.27.1", "-v", str(p))
    assert r.exit_code == 0, r.output
    for code in ("VL401", "VL301", "VL302", "VL303"):
        assert f"{code} skipped: the model `acme/unknown-model` is not in the shipped table" in r.output
    assert "VL402 skipped: the GPUs available to the launch are unknown" in r.output


@pytest.mark.parametrize("launch", [
    "vllm serve acme/unknown-model\n",
    "vllm serve acme/unknown-model -tp $TP\n",  # the ranks unknown: no rule sizes the model, it is named
])
def test_verbose_names_an_unknown_model_whatever_rules_ran(lint, tmp_path, monkeypatch, launch):
    monkeypatch.setattr(models, "hf_cache_dirs", lambda: [])
    models.clear_cache()
    p = tmp_path / "run.sh"
    p.write_text(launch)
    r = lint("-t", "0.27.1", "-v", str(p))
    assert "model `acme/unknown-model`: not identified (the model `acme/unknown-model` is not in the shipped " \
           "table" in r.output, r.output
    models.clear_cache()


@pytest.mark.parametrize("written, says", [
    ("/models/Llama-4-Maverick-17B-128E-Instruct-FP8",
     "local path ending in the model's name: `Llama-4-Maverick-17B-128E-Instruct-FP8` is the name of "
     "`meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8`, listed in row Llama-4-Maverick-17B-128E-Instruct; "
     "a quantised id: weights fp8, as `-FP8` says"),
    ("hf://meta-llama/Llama-3.1-70B-Instruct",
     "hf:// URL `meta-llama/Llama-3.1-70B-Instruct` is listed in row Llama-3.1-70B-Instruct"),
    ("s3://bucket/models/Qwen2.5-72B-Instruct-AWQ",
     "URL ending in the model's name: quantised variant (`-AWQ`, weights int4) of row Qwen2.5-72B-Instruct"),
    ("gs://bucket/DeepSeek-R1/",
     "URL ending in the model's name: `DeepSeek-R1` is the name of `deepseek-ai/DeepSeek-R1`, listed in row DeepSeek-R1"),
    ("RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic",
     "hub id: quantised variant (`-FP8-dynamic`, weights fp8) of row Llama-3.1-8B-Instruct"),
    ("unsloth/DeepSeek-R1-GGUF",
     "hub id: quantised variant (`-GGUF`, weights of a width the name does not give) of row DeepSeek-R1"),
    ("someorg/Qwen3-14B-Chat", "hub id: `Qwen3-14B-Chat` is a variant of row Qwen3-14B (`-Chat` read as a "
                               "variant's suffix; architecture inherited, context length not)"),
])
def test_verbose_says_which_row_and_name_rule(lint, tmp_path, monkeypatch, written, says):
    monkeypatch.setattr(models, "hf_cache_dirs", lambda: [])
    models.clear_cache()
    p = tmp_path / "run.sh"
    p.write_text(f"vllm serve {written} --served-model-name Llama-3.1-8B-Instruct\n")
    r = lint("-t", "0.27.1", "-v", str(p))
    assert f"model `{written}`: {says}" in r.output, r.output
    models.clear_cache()


def test_verbose_names_the_config_json_a_local_model_was_read_from(lint, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "models" / "Qwen3-8B").mkdir(parents=True)  # named like a row; its own config.json wins
    (tmp_path / "models" / "Qwen3-8B" / "config.json").write_text(json.dumps({
        "architectures": ["LlamaForCausalLM"], "num_attention_heads": 32, "num_key_value_heads": 8,
        "hidden_size": 4096, "num_hidden_layers": 32, "max_position_embeddings": 8192}))
    (tmp_path / "run.sh").write_text("vllm serve ./models/Qwen3-8B\n")
    models.clear_cache()
    r = lint("-t", "0.27.1", "-v", "run.sh")
    assert "model `./models/Qwen3-8B`: facts from the config.json at models/Qwen3-8B/config.json" in r.output, r.output
    assert "row Qwen3-8B" not in r.output
    models.clear_cache()


@pytest.mark.parametrize("gpus, idle", [(2, "1 GPU stays idle"), (8, "7 GPUs stay idle")])
def test_idle_gpus_are_counted_in_words(lint, tmp_path, gpus, idle):
    p = tmp_path / "run.sh"
    p.write_text(f"docker run --gpus {gpus} vllm/vllm-openai:v0.27.1 --model facebook/opt-125m\n")
    r = lint("--output-format", "json", str(p))
    (d,) = [d for d in json.loads(r.output) if d["code"] == "VL402"]
    assert d["message"].endswith(idle)


# ------------------------------------------------------------------------- unsafe fixes


MAVERICK = """#!/bin/bash
vllm serve meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8 -tp 8 \\
  --enable-expert-parallel \\
  --max-model-len 65536
"""


def test_vl303_fix_only_with_unsafe_fixes(lint, tmp_path):
    p = tmp_path / "deploy.sh"
    p.write_text(MAVERICK)
    r = lint("-t", "0.27.1", "--fix", str(p))
    assert p.read_text() == MAVERICK and "--unsafe-fixes" in r.output
    r = lint("-t", "0.27.1", "--fix", "--unsafe-fixes", str(p))
    fixed = p.read_text()
    assert "--enable-expert-parallel" not in fixed
    assert "-tp 8" in fixed and "--max-model-len 65536" in fixed
    assert not [d for d in findings(lint, p) if d["code"] == "VL303"]
    subprocess.run(["bash", "-n", str(p)], check=True)


def test_vl303_fix_yaml_list_and_kwargs(lint, tmp_path):
    y = tmp_path / "pod.yaml"
    y.write_text("""apiVersion: v1
kind: Pod
metadata: {name: m}
spec:
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.27.1
    args:
    - meta-llama/Llama-4-Maverick-17B-128E-Instruct
    - --tensor-parallel-size=8
    - --enable-expert-parallel
    - --port=8000
""")
    lint("-t", "0.27.1", "--fix", "--unsafe-fixes", str(y))
    text = y.read_text()
    assert "--enable-expert-parallel" not in text and "--tensor-parallel-size=8" in text and "--port=8000" in text
    py = tmp_path / "run.py"
    py.write_text('from vllm import LLM\nllm = LLM("meta-llama/Llama-4-Maverick-17B-128E-Instruct", '
                  'tensor_parallel_size=8, enable_expert_parallel=True)\n')
    lint("-t", "0.27.1", "--fix", "--unsafe-fixes", str(py))
    text = py.read_text()
    assert "enable_expert_parallel" not in text and "tensor_parallel_size=8" in text
    compile(text, str(py), "exec")


@pytest.mark.parametrize("before,after", [
    ("--gpu-memory-utilization 0.95", "--gpu-memory-utilization 0.9"),
    ("--gpu-memory-utilization=0.97", "--gpu-memory-utilization=0.9"),
    ("--gpu-memory-utilization '0.95'", "--gpu-memory-utilization '0.9'"),
])
def test_vl302_fix_sets_cap(lint, tmp_path, before, after):
    p = tmp_path / "deploy.sh"
    src = f"vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --all2all-backend deepep_low_latency {before}\n"
    p.write_text(src)
    lint("-t", "0.27.1", "--fix", str(p))
    assert p.read_text() == src
    got = [d for d in findings(lint, p) if d["code"] == "VL302"]
    assert got[0]["fix"]["applicability"] == "unsafe"
    lint("-t", "0.27.1", "--fix", "--unsafe-fixes", str(p))
    assert p.read_text() == src.replace(before, after)
    assert not [d for d in findings(lint, p) if d["code"] == "VL302"]


def test_vl302_fix_uses_configured_cap_in_yaml(lint, tmp_path):
    (tmp_path / ".vllm-lint.toml").write_text("moe-gpu-memory-utilization-cap = 0.85\n")
    y = tmp_path / "values.yaml"
    y.write_text("""apiVersion: v1
kind: Pod
metadata: {name: m}
spec:
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.27.1
    args: ["deepseek-ai/DeepSeek-V3", "-dp", "8", "--enable-expert-parallel", "--all2all-backend", "deepep_low_latency", "--gpu-memory-utilization", "0.95"]
""")
    lint("-t", "0.27.1", "--fix", "--unsafe-fixes", str(y))
    assert '"--gpu-memory-utilization", "0.85"' in y.read_text()


def test_vl302_silent_where_its_mechanism_does_not_apply(lint, tmp_path):
    """Issue 30: a finding must not argue against itself. TP-only MoE at 0.95: the all-to-all
    buffer mechanism does not apply, so no finding (and --unsafe-fixes leaves the value); the
    verbose account says why the rule did not apply."""
    p = tmp_path / "serve.sh"
    text = "vllm serve Qwen/Qwen3-30B-A3B --gpu-memory-utilization 0.95\n"
    p.write_text(text)
    assert not [d for d in findings(lint, p) if d["code"] == "VL302"]
    lint("-t", "0.27.1", "--fix", "--unsafe-fixes", str(p))
    assert p.read_text() == text
    verbose = lint("-t", "0.27.1", "--verbose", str(p))
    assert "VL302 skipped" in verbose.output and "expert parallelism is off" in verbose.output


def test_vl302_no_fix_for_opaque_value(lint, tmp_path):
    p = tmp_path / "deploy.sh"
    p.write_text('vllm serve Qwen/Qwen3-30B-A3B --gpu-memory-utilization "$GMU"\n')
    assert not [d for d in findings(lint, p) if d["code"] == "VL302"]


# ------------------------------------------------------------------------- defaults and units


def test_vl306_off_by_default(lint, tmp_path):
    p = tmp_path / "run.sh"
    p.write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct --enforce-eager\n")
    assert not [d for d in findings(lint, p) if d["code"] == "VL306"]
    assert [d["code"] for d in findings(lint, p, "--select", "VL306")] == ["VL306"]


@pytest.mark.parametrize("text,value", [("32k", 32000), ("32K", 32768), ("25.6k", 25600), ("1M", 1048576),
                                        ("131072", 131072), ("auto", None), ("-1", None), ("1.5K", None), (8192, 8192)])
def test_human_int(text, value):
    assert human_int(text) == value


def test_rule_docs_have_sections():
    from vllm_lint.rules.base import registry

    for code, rule in registry().items():
        if code[2] not in "345":
            continue
        for section in ("## What it does", "## Why is this bad?", "## Example", "## Fix safety", "## Evidence"):
            assert section in rule.doc, f"{code} lacks {section}"
        if rule.fix is not None:
            assert rule.fix == "unsafe", code


def test_a_listed_id_is_answered_without_the_whole_table(monkeypatch):
    """A hub id the table lists makes that row's facts only; the table made later holds the same
    object, and the answers are the table's."""
    monkeypatch.setattr(models, "_TABLE", None)
    monkeypatch.setattr(models, "_ROW_FACTS", {})
    monkeypatch.setattr(models, "_ID_ROWS", None)
    facts = models.listed("QWEN/Qwen2.5-7B-Instruct")
    assert facts is not None and facts.heads == 28
    assert models._TABLE is None and len(models._ROW_FACTS) == 1
    assert models.listed("someone/not-listed") is None
    assert models.table()["qwen/qwen2.5-7b-instruct"] is facts
    assert all(models.listed(rid) is f for rid, f in models.table().items())
