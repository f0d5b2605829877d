"""The name rules of the model table, the parameter formula against published counts, and the
table's schema (one row per base model, a source per row, numbers that agree with each other)."""

from __future__ import annotations

import csv
import re

import pytest

from vllm_lint.knowledge import models
from vllm_lint.knowledge.params import count_params, weight_bytes


@pytest.fixture(autouse=True)
def _no_hf_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(models, "hf_cache_dirs", lambda: [tmp_path / "hub"])
    models.clear_cache()
    yield
    models.clear_cache()


@pytest.mark.parametrize("written,row,dtype,rule", [
    ("Qwen/Qwen3-30B-A3B", "Qwen3-30B-A3B", "bf16", "listed"),
    ("RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic", "Llama-3.1-8B-Instruct", "fp8", "quantised variant"),
    ("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", "Qwen2.5-7B-Instruct", "int4", "quantised variant"),
    ("Qwen/Qwen3-8B-AWQ", "Qwen3-8B", "int4", "quantised variant"),
    ("nvidia/DeepSeek-R1-NVFP4", "DeepSeek-R1", "nvfp4", "quantised variant"),
    ("neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8", "Llama-3.1-70B-Instruct", "int8", "quantised variant"),
    ("unsloth/gpt-oss-20b-GGUF", "gpt-oss-20b", None, "quantised variant"),
    ("Qwen/Qwen3-235B-A22B-Instruct-2507-FP8", "Qwen3-235B-A22B-Instruct-2507", "fp8", "quantised variant"),
    ("/models/Llama-4-Maverick-17B-128E-Instruct-FP8", "Llama-4-Maverick-17B-128E-Instruct", "fp8", "local path"),
    ("/models/Llama-4-Maverick-17B-128E-Instruct-FP8/", "Llama-4-Maverick-17B-128E-Instruct", "fp8", "local path"),
    ("hf://meta-llama/Llama-3.1-70B-Instruct", "Llama-3.1-70B-Instruct", "bf16", "hf:// URL"),
    ("s3://bucket/models/Qwen2.5-72B-Instruct-AWQ", "Qwen2.5-72B-Instruct", "int4", "URL"),
    ("gs://bucket/DeepSeek-R1", "DeepSeek-R1", "fp8", "URL"),
    ("/root/.cache/huggingface/hub/models--Qwen--Qwen3-8B/snapshots/0a1b2c", "Qwen3-8B", "bf16", "cache"),
    ("someorg/Mixtral-8x7B-Instruct-v0.1", "Mixtral-8x7B-Instruct-v0.1", "bf16", "row Mixtral"),
    ("Qwen-2.5-0.5B", "Qwen2.5-0.5B", None, "row Qwen2.5-0.5B"),
    ("/models/llama3.1-8b-instruct", "Llama-3.1-8B-Instruct", "bf16", "local path"),
    ("meta-llama/Llama-3.1-8B", "Llama-3.1-8B-Instruct", "bf16", "is the name of `meta-llama/Meta-Llama-3.1-8B`"),
    ("someorg/Llama-3.3-70B", "Llama-3.3-70B-Instruct", None, "variant of row"),
    ("casperhansen/llama-3-70b-instruct-awq", "Meta-Llama-3-70B", "int4", "quantised variant (`-awq`"),
    ("unsloth/Llama-3.2-3B-Instruct-bnb-4bit", "Llama-3.2-3B-Instruct", "int4", "quantised variant (`-bnb-4bit`"),
    ("unsloth/Qwen3-8B-unsloth-bnb-4bit", "Qwen3-8B", "int4", "quantised variant (`-unsloth-bnb-4bit`"),
    ("someorg/Qwen3-8B-4bit", "Qwen3-8B", "int4", "quantised variant (`-4bit`"),
    ("hf://amd/Llama-3.1-70B-Instruct-FP8-KV", "Llama-3.1-70B-Instruct", "fp8", "quantised variant (`-FP8-KV`"),
    ("Qwen/Qwen3-Coder-30B-A3B-Instruct-FP8", "Qwen3-Coder-30B-A3B-Instruct", "fp8", "quantised variant"),
    ("RedHatAI/Mistral-Small-3.1-24B-Instruct-2503-FP8-dynamic", "Mistral-Small-3.1-24B-Instruct-2503", "fp8",
     "quantised variant"),
    ("/models/granite-3.0-3b-a800m-instruct", "granite-3.0-3b-a800m-instruct", None, "local path"),
    ("mistralai/Devstral-Small-2505", "Devstral-Small-2505", None, "listed"),
    ("unsloth/Devstral-Small-2507-GGUF", "Devstral-Small-2507", None, "quantised variant"),
    ("/models/Devstral-Small-2-24B-Instruct-2512", "Devstral-Small-2-24B-Instruct-2512", "fp8", "local path"),
    ("mistralai/Magistral-Small-2506", "Magistral-Small-2506", None, "listed"),
    ("RedHatAI/Magistral-Small-2509-FP8-dynamic", "Magistral-Small-2509", "fp8", "quantised variant"),
    # a download laid out by revision: the folder before the branch or commit names the model
    ("/models/microsoft/phi-2/main", "phi-2", "fp16", "local path"),
    ("/srv/TinyLlama/TinyLlama-1.1B-Chat-v1.0/0123456789abcdef0123456789abcdef01234567/", "TinyLlama-1.1B-v1.0",
     None, "local path"),
    ("TheBloke/DeepSeek-OCR-GPTQ", "DeepSeek-OCR", None, "quantised variant"),
])
def test_name_rules(written, row, dtype, rule):
    facts, _ = models.resolve(written)
    assert facts is not None, written
    assert facts.model == row and facts.weight_dtype == dtype
    assert rule in facts.matched_by


def test_instruction_variant_inherits_architecture_not_context():
    facts, _ = models.resolve("someorg/Qwen3-14B-Chat")
    base = models.table()["qwen/qwen3-14b"]
    assert facts is not None and facts.heads == base.heads and facts.kv_heads == base.kv_heads
    assert facts.max_positions is None and "variant of row" in facts.matched_by


@pytest.mark.parametrize("written", [
    "mistralai/Mistral-Small-Instruct-2507",  # another release date than the 2409 row: another model
    "EleutherAI/gpt-neox-20b", "/mnt/models", "/models", "/models/main", "s3://bucket/", "mistralai/Devstral-Medium-2507",
    "$MODEL", "my-finetune",
])
def test_unknown_names_stay_unknown(written):
    assert models.resolve(written)[0] is None


def test_two_bases_with_different_facts_are_silent(monkeypatch):
    a = models.ModelFacts("A", heads=32, kv_heads=8, layers=32)
    b = models.ModelFacts("B", heads=64, kv_heads=8, layers=80)
    monkeypatch.setattr(models, "_TABLE", {"x/foo-7b": a, "y/foo-7b": b})
    monkeypatch.setattr(models, "_NAME_INDEX", None)
    monkeypatch.setattr(models, "_NORM_INDEX", None)
    facts, why = models.identify("z/foo-7b-FP8")
    assert facts is None and "different facts" in why


# ------------------------------------------------------------------------- parameter formula

# (config fields, published total, published active, where the published count is stated)
PUBLISHED = [
    ({"vocab_size": 129280, "hidden_size": 7168, "num_hidden_layers": 61, "num_attention_heads": 128,
      "num_key_value_heads": 128, "intermediate_size": 18432, "moe_intermediate_size": 2048, "n_routed_experts": 256,
      "n_shared_experts": 1, "num_experts_per_tok": 8, "first_k_dense_replace": 3, "q_lora_rank": 1536,
      "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128},
     671e9, 37e9, "DeepSeek-V3: 671B total, 37B activated (deepseek-ai/DeepSeek-V3 README)"),
    ({"vocab_size": 151936, "hidden_size": 2048, "num_hidden_layers": 48, "num_attention_heads": 32,
      "num_key_value_heads": 4, "head_dim": 128, "moe_intermediate_size": 768, "num_experts": 128,
      "num_experts_per_tok": 8, "intermediate_size": 6144},
     30.5e9, 3.3e9, "Qwen3-30B-A3B model card: 30.5B total, 3.3B activated"),
    ({"vocab_size": 32000, "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
      "num_key_value_heads": 8, "intermediate_size": 14336, "num_local_experts": 8, "num_experts_per_tok": 2},
     46.7e9, 12.9e9, "Mixtral of experts (Mistral AI, 2023): 46.7B total, 12.9B per token"),
    ({"vocab_size": 128256, "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
      "num_key_value_heads": 8, "intermediate_size": 14336},
     8.03e9, 8.03e9, "Llama-3.1-8B model card: 8.03B"),
    ({"vocab_size": 201088, "hidden_size": 2880, "num_hidden_layers": 36, "num_attention_heads": 64,
      "num_key_value_heads": 8, "head_dim": 64, "intermediate_size": 2880, "num_local_experts": 128,
      "num_experts_per_tok": 4},
     116.8e9, None, "gpt-oss model card: 116.8B total (its 5.1B active leaves out the input embedding)"),
    ({"model_type": "llama4_text", "vocab_size": 202048, "hidden_size": 5120, "num_hidden_layers": 48,
      "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 8192,
      "intermediate_size_mlp": 16384, "num_local_experts": 128, "num_experts_per_tok": 1, "interleave_moe_layer_step": 2},
     400e9, 17e9, "Llama 4 Maverick model card: 400B total, 17B active"),
    ({"model_type": "opt", "vocab_size": 50272, "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
      "ffn_dim": 3072, "max_position_embeddings": 2048, "word_embed_proj_dim": 768},
     125e6, 125e6, "OPT: 125M (facebook/opt-125m model card)"),
    ({"vocab_size": 151552, "hidden_size": 4096, "num_hidden_layers": 46, "num_attention_heads": 96,
      "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 10944, "moe_intermediate_size": 1408,
      "n_routed_experts": 128, "n_shared_experts": 1, "num_experts_per_tok": 8, "first_k_dense_replace": 1},
     106e9, None, "GLM-4.5-Air: 106B total (zai-org/GLM-4.5 README; its 12B active leaves out the embeddings)"),
    ({"vocab_size": 151936, "hidden_size": 2048, "num_hidden_layers": 48, "num_attention_heads": 32,
      "num_key_value_heads": 4, "head_dim": 128, "intermediate_size": 5472, "moe_intermediate_size": 768,
      "num_experts": 128, "num_experts_per_tok": 8, "mlp_only_layers": [], "decoder_sparse_step": 1},
     30.5e9, 3.3e9, "Qwen3-Coder-30B-A3B-Instruct model card: 30.5B total, 3.3B activated"),
]


@pytest.mark.parametrize("cfg,total,active,where", PUBLISHED, ids=[p[3].split(":")[0] for p in PUBLISHED])
def test_formula_matches_published_counts(cfg, total, active, where):
    got = count_params(cfg)
    assert got is not None
    assert abs(got[0] - total) / total < 0.05, (got, where)
    if active is not None:
        assert abs(got[1] - active) / active < 0.05, (got, where)


def test_formula_declines_what_it_does_not_describe():
    assert count_params({"vocab_size": 10, "hidden_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
                         "linear_num_value_heads": 4, "intermediate_size": 16}) is None
    assert count_params({"hidden_size": 8}) is None
    assert weight_bytes(10, "fp8") == 10 and weight_bytes(10, "gguf") is None


# ------------------------------------------------------------------------- the table

def _rows():
    lines = [ln for ln in models._table_path().read_text(encoding="utf-8").splitlines(keepends=True)
             if not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def test_table_schema():
    rows = _rows()
    names = [r["model"] for r in rows]
    assert len(names) == len(set(names)), "one row per base model"
    for r in rows:
        assert r["source"].strip() and ("@" in r["source"] or "sdist" in r["source"] or "code-index file id" in r["source"]), r["model"]
        # a model card is cited by its hub page and by where the copy that was read is kept
        for part in r["source"].split(" | "):
            if part.startswith("model card "):
                assert part.startswith("model card huggingface.co/") and ("https://" in part or "@" in part), r["model"]
        # facts a row inherits from another row name that row, which must exist
        for base in re.findall(r"inherited from row (\S+)", r["source"]):
            assert base in {x["model"] for x in rows}, (r["model"], base)
        for k in ("num_attention_heads", "num_key_value_heads", "head_dim", "hidden_size", "num_hidden_layers",
                  "moe_routed_experts", "experts_per_token", "max_position_embeddings"):
            assert r[k] == "" or int(r[k]) > 0, (r["model"], k)
        assert r["uses_mla"] in ("yes", "no", ""), r["model"]
        assert r["native_dtype"] in ("", "bf16", "fp16", "fp32", "fp8", "mxfp4", "nvfp4"), r["model"]
        if r["params_total_b"]:
            assert r["params_basis"], r["model"]
            assert float(r["params_active_b"]) <= float(r["params_total_b"]), r["model"]
            if not r["moe_routed_experts"]:
                assert r["params_active_b"] == r["params_total_b"], r["model"]
        # architecture facts the name rules let variants inherit must agree with the row's own numbers
        if r["num_attention_heads"] and r["num_key_value_heads"]:
            assert int(r["num_attention_heads"]) % int(r["num_key_value_heads"]) == 0, r["model"]


def test_table_rows_named_by_their_ids():
    t = models.table()
    for r in _rows():
        for rid in r["hf_repo_ids"].split(";"):
            assert t[rid.lower()].model == r["model"]


# ------------------------------------------------------------------------- a base carried in the name

@pytest.mark.parametrize("written,base,row,sized", [
    ("acme/DeepSeek-V3-sft-v2", "DeepSeek-V3", "deepseek-ai/deepseek-v3", False),
    ("someone/Qwen3-235B-A22B-abliterated-GGUF", "Qwen3-235B-A22B", "qwen/qwen3-235b-a22b", True),
    ("lab/my-Llama-3.1-70B-roleplay-AWQ", "Llama-3.1-70B", "meta-llama/llama-3.1-70b-instruct", True),
    ("lab/Mixtral-8x7B-storyteller", "Mixtral-8x7B", "mistralai/mixtral-8x7b-instruct-v0.1", True),
    ("lab/Qwen3-30B-A3B-Instruct-2507-abliterated", "Qwen3-30B-A3B", "qwen/qwen3-30b-a3b", True),
    # a date after the base's name is no part of it (``-Flash-0731`` is not ``-Flash0731``)
    ("lab/DeepSeek-V4-Flash-0731-abliterated", "DeepSeek-V4-Flash", "deepseek-ai/deepseek-v4-flash", False),
    ("someone/whisper-large-v3-pt-cv19-fleurs", "whisper-large-v3", "openai/whisper-large-v3", False),
])
def test_name_carrying_a_base_gets_its_architecture(written, base, row, sized):
    facts, _ = models.resolve(written)
    ref = models.table()[row]
    assert facts is not None, written
    assert f"a {base}-architecture model, by its name" in facts.model
    assert f"name carries {base}" in facts.matched_by
    arch = ("heads", "kv_heads", "hidden_size", "layers", "routed_experts", "experts_per_token", "mla")
    assert all(getattr(facts, k) == getattr(ref, k) for k in arch)
    assert facts.max_positions is None  # fine-tunes change the context length
    # the parameter count only where the base's name gives the size
    assert (facts.params_total == ref.params_total) if sized else facts.params_total is None


@pytest.mark.parametrize("written,why", [
    ("lab/DeepSeek-R1-Distill-Qwen-3B-preview", "distilled"),      # the student's architecture, not R1's
    ("lab/DeepSeek-V3-and-Qwen3-8B-merge", "different facts"),    # two bases that disagree
    ("lab/DeepSeek-V3.9-preview", "no row"),                      # V3 is not inside a version number
    ("lab/superdeepseek-v3", "no row"),                           # only on token boundaries
])
def test_carried_base_declines(written, why):
    facts, reason = models.identify(written)
    assert facts is None and why in reason


def test_the_models_own_config_outranks_a_carried_base(tmp_path, monkeypatch):
    import json

    snap = tmp_path / "hub" / "models--acme--DeepSeek-V3-tiny" / "snapshots" / "abc"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLM"], "num_attention_heads": 8,
                                                  "num_key_value_heads": 2, "hidden_size": 512, "num_hidden_layers": 4}))
    monkeypatch.setattr(models, "hf_cache_dirs", lambda: [tmp_path / "hub"])
    models.clear_cache()
    facts, _ = models.resolve("acme/DeepSeek-V3-tiny")
    assert facts is not None and facts.heads == 8 and "name carries" not in facts.matched_by
