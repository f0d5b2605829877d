"""Parameter counts and weight bytes of a model, from its ``config.json``.

``count_params(cfg)`` returns ``(total, active)`` for the decoder families whose layer shapes the
config spells out: dense attention with grouped KV heads, multi-head latent attention (DeepSeek
V2/V3, Kimi K2), mixture-of-experts MLPs with routed and shared experts, dense leading layers
(``first_k_dense_replace``) and interleaved MoE layers (Llama 4). It counts the matrices only:

* embeddings ``V x H``, plus an output head ``V x H`` unless ``tie_word_embeddings``;
* attention per layer ``H x (heads x d) + 2 x H x (kv x d) + (heads x d) x H``; with MLA the low-rank
  query and KV projections (``q_lora_rank``, ``kv_lora_rank``, nope/rope/v head dims) instead;
* a gated MLP ``3 x H x I`` (OPT: ``2 x H x ffn_dim``, plus its learned positions); an MoE layer ``E x 3 x H x I_moe`` routed, plus its shared experts and
  its router ``H x E``; active parameters take ``k`` routed experts instead of ``E``;
* DeepSeek's multi-token-prediction layers are not counted (the published 671B excludes them).

Biases, norms and vision towers are left out (well under 1 % of the counts it matches). Families
it does not describe (linear-attention hybrids, state-space layers, per-layer shapes) give None.
``tests/knowledge/test_names_and_params.py`` checks the formula against published counts (within 5 %).

``weight_bytes(total, dtype)``: a lower bound of the checkpoint's weight bytes, every parameter at
the width of its quantisation (quantised checkpoints keep some layers wider; scales are small).
"""

from __future__ import annotations

from typing import Any, Optional


def _i(d: dict, *keys: str) -> Optional[int]:
    for k in keys:
        v = d.get(k)
        if isinstance(v, bool):
            continue
        if isinstance(v, int) and v >= 0:
            return v
        if isinstance(v, float) and v.is_integer() and v >= 0:
            return int(v)
    return None


_UNSUPPORTED = ("linear_attn", "mamba", "ssm", "layer_types_hybrid")


def count_params(cfg: Any) -> Optional[tuple[int, int]]:
    """(total, active) parameters of the text decoder, or None when the config does not say."""
    if not isinstance(cfg, dict):
        return None
    t = cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else cfg
    if any(k in t for k in ("linear_num_value_heads", "mamba_num_heads", "ssm_state_size", "hybrid_override_pattern",
                           "block_configs", "attn_type_list")):
        return None
    V, H, L = _i(t, "vocab_size"), _i(t, "hidden_size"), _i(t, "num_hidden_layers")
    nh = _i(t, "num_attention_heads")
    if not (V and H and L and nh):
        return None
    nkv = _i(t, "num_key_value_heads")
    nkv = nh if nkv is None else nkv
    hd = _i(t, "head_dim") or H // nh
    tied = t.get("tie_word_embeddings", cfg.get("tie_word_embeddings", False)) is True
    embed = V * H * (1 if tied else 2)

    if t.get("kv_lora_rank"):
        kvr = _i(t, "kv_lora_rank") or 0
        qr = _i(t, "q_lora_rank")
        nope, rope, vd = _i(t, "qk_nope_head_dim") or 0, _i(t, "qk_rope_head_dim") or 0, _i(t, "v_head_dim") or 0
        if not (nope and rope and vd):
            return None
        q = H * qr + qr * nh * (nope + rope) if qr else H * nh * (nope + rope)
        attn = q + H * (kvr + rope) + kvr * nh * (nope + vd) + nh * vd * H
    else:
        attn = H * nh * hd + 2 * H * nkv * hd + nh * hd * H

    inter = _i(t, "intermediate_size")
    E = _i(t, "n_routed_experts", "num_local_experts", "num_experts", "moe_num_experts")
    if t.get("model_type") == "opt":  # two-matrix MLP (ffn_dim) and learned positions (2 offset rows)
        ffn = _i(t, "ffn_dim")
        if not ffn or (_i(t, "word_embed_proj_dim") or H) != H:
            return None
        tied = t.get("tie_word_embeddings", True) is not False
        total = V * H * (1 if tied else 2) + ((_i(t, "max_position_embeddings") or 0) + 2) * H + L * (attn + 2 * H * ffn)
        return total, total
    if not E or E <= 1:
        if not inter:
            return None
        total = embed + L * (attn + 3 * H * inter)
        return total, total
    k = _i(t, "num_experts_per_tok", "experts_per_token", "moe_topk")
    moe_i = _i(t, "moe_intermediate_size") or inter
    if not (k and moe_i):
        return None
    shared = 0
    if _i(t, "n_shared_experts"):
        shared = _i(t, "n_shared_experts") * 3 * H * moe_i  # type: ignore[operator]
    elif _i(t, "shared_expert_intermediate_size"):
        shared = 3 * H * _i(t, "shared_expert_intermediate_size")  # type: ignore[operator]
    dense_i = inter
    step = _i(t, "interleave_moe_layer_step")
    if step and step > 1:  # Llama 4: every step-th layer is MoE, with one shared expert of intermediate_size
        n_moe = L // step
        dense_i = _i(t, "intermediate_size_mlp") or inter
        shared = 3 * H * inter
    elif t.get("model_type") == "llama4_text" or t.get("interleave_moe_layer_step") == 1:
        n_moe = L
        shared = 3 * H * inter
    else:
        first_dense = _i(t, "first_k_dense_replace") or 0
        mlp_only = t.get("mlp_only_layers") or []
        sparse_step = _i(t, "decoder_sparse_step") or 1
        if not isinstance(mlp_only, list) or sparse_step != 1:
            return None
        n_moe = L - first_dense - len([x for x in mlp_only if isinstance(x, int) and x >= first_dense])
    n_dense = L - n_moe
    if n_dense and not dense_i:
        return None
    router = H * E
    moe_total = E * 3 * H * moe_i + shared + router
    moe_active = k * 3 * H * moe_i + shared + router
    base = embed + L * attn + n_dense * 3 * H * (dense_i or 0)
    return base + n_moe * moe_total, base + n_moe * moe_active


# bytes per parameter, as a lower bound for the checkpoint's weights
BYTES_PER_PARAM = {
    "fp32": 4.0, "bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "int8": 1.0, "w8a8": 1.0,
    "int4": 0.5, "w4a16": 0.5, "awq": 0.5, "gptq": 0.5, "nvfp4": 0.5, "mxfp4": 0.5,
}


def weight_bytes(params: int, dtype: Optional[str]) -> Optional[float]:
    if not params or not dtype:
        return None
    b = BYTES_PER_PARAM.get(dtype.lower())
    return None if b is None else params * b


def dtype_of_config(cfg: Any) -> Optional[str]:
    """The checkpoint's weight format: its quantisation method when there is one, else its dtype."""
    if not isinstance(cfg, dict):
        return None
    q = cfg.get("quantization_config")
    if isinstance(q, dict):
        m = str(q.get("quant_method") or "").lower()
        if m == "fp8":
            return "fp8"
        if m == "mxfp4":
            return "mxfp4"
        if m in ("awq", "gptq"):
            bits = q.get("bits")
            return "int4" if bits == 4 else "int8" if bits == 8 else None
        if m in ("modelopt", "modelopt_fp4") or str(q.get("quant_algo") or "").upper() == "NVFP4":
            return "nvfp4" if "4" in (str(q.get("quant_algo") or "") + m) else None
        if m == "compressed-tensors":
            return None  # its groups name their bits; not read here
        return None
    t = cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else cfg
    dt = str(t.get("torch_dtype") or t.get("dtype") or cfg.get("torch_dtype") or cfg.get("dtype") or "").lower()
    return {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}.get(dt)
