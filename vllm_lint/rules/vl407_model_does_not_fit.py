"""## What it does
Compares the model's weights with the GPU memory the launch gets, when the model, its weight
format, the GPU product and the parallel layout are all known:

* weights per GPU = parameters x bytes per parameter / (tensor parallel x pipeline parallel), and
  over data parallel ranks too with expert parallelism; bytes per parameter from `--quantization`
  (`fp8`: 1), `--dtype`, the quantisation the model's name states (`-FP8`, `-AWQ`, `-NVFP4`, ...)
  or the checkpoint's published format (`models.tsv` `native_dtype`);
* budget per GPU = the product's memory (a per-product table: A10G, L4, L40S, A100 40/80 GB, H100,
  H200, B200, MI300X, MI325X, MI355X, the workstation A40, L20, RTX A4000/A5000/A6000 and the
  consumer RTX 3090/4090/5090, ...; a bare `RTX 6000` names three parts of 24, 48 and 96 GB and stays
  unknown) x `--gpu-memory-utilization` + `--cpu-offload-gb`;
* for models whose every layer caches full-length attention, the KV cache of one `--max-model-len`
  sequence (the model's context length when not given; nothing for `auto` / `-1`, which vLLM fits
  to the memory) at `--kv-cache-dtype`.

A warning when the weights alone exceed the budget, or leave no room for one such sequence.

## Why is this bad?
vLLM loads the weights first and sizes the KV cache from what is left: the launch is accepted, then
fails at start with an out-of-memory error while loading, or with "no available memory for the
cache blocks" / a KV cache smaller than one maximum-length sequence.

## Example
```bash
vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 1   # on one L40S (48 GB)
```

## Fix safety
No fix: more GPUs, a quantised checkpoint, a smaller `--max-model-len` or `--cpu-offload-gb` are
all choices for the user.

## Evidence
Arithmetic, conservative on every side: the parameter count is the formula's (a lower bound where
the table says so), every parameter at its quantised width (scales and unquantised layers left out),
the product's memory as its upper bound in GiB. vLLM 0.33.0 `vllm/v1/core/kv_cache_utils.py`
(`check_enough_kv_cache_memory`: the start fails when one max_model_len sequence does not fit),
`vllm/v1/worker/gpu_worker.py` (the KV budget is `gpu_memory_utilization x total` minus what
profiling measured), `--cpu-offload-gb` (per GPU). Silent when anything is unknown: the model, its
format (GGUF, GPTQ without bits), the product (an A100 without its size), or the layout.
From 0.34.0 `--gpu-memory-utilization` has no constant default: vLLM decides it at start (1.0 with
the extensible KV cache it enables on CUDA and ROCm, 0.92 without; `vllm/config/cache.py`
`resolved_gpu_memory_utilization`). An unset utilization is that number for the launch's GPU
(`knowledge/computed_defaults.py`, the larger where the driver decides); where it cannot be told
(`--kv-cache-memory-bytes` set, an unknown platform), the rule says so with `--verbose` and stays
silent.
"""

from ..knowledge import hardware
from ..knowledge.layout import as_float, human_int, layout, model_facts
from . import _facts
from .base import LintContext, Rule

RULE = Rule(code="VL407", name="model-does-not-fit",
            summary="the weights (and one max-length sequence's KV cache) exceed the GPU memory the launch gets",
            severity="warning",
            triggers=frozenset((_facts.GPU_MEMORY, _facts.NOTES)))

_GIB = 1024 ** 3
# architectures whose every layer caches the whole context (no sliding window, chunked or linear
# attention), so one sequence's KV cache is layers x KV heads x head size x length
# (Mistral and Mixtral are not: some of their configs set a sliding window)
_FULL_ATTENTION = {"LlamaForCausalLM", "Qwen2ForCausalLM", "Qwen3ForCausalLM", "Qwen3MoeForCausalLM",
                   "DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM", "Glm4MoeForCausalLM"}
_QUANT_OPTION = {"fp8": "fp8", "fbgemm_fp8": "fp8", "ptpc_fp8": "fp8", "mxfp4": "mxfp4", "modelopt_fp4": "nvfp4"}


def _arg_value(lay, dest):
    a = lay.by_dest.get(dest)
    if a is None:
        return None, True
    if a.value_opaque:
        return None, False
    return a.value, True


def _weight_format(lay, facts):
    """(format, where from) or (None, why)."""
    q, known = _arg_value(lay, "quantization")
    if not known:
        return None, "--quantization is not known statically"
    if isinstance(q, str) and q:
        fmt = _QUANT_OPTION.get(q.strip().lower())
        if fmt is not None:
            return fmt, f"--quantization {q}"
        if facts.weight_dtype in ("int4", "int8", "fp8", "nvfp4", "mxfp4"):
            return facts.weight_dtype, "the model's name"
        return None, f"--quantization {q} has no width this rule knows"
    if facts.weight_dtype in ("int4", "int8", "fp8", "nvfp4", "mxfp4"):
        return facts.weight_dtype, "the model's name" if facts.matched_by and "quantised" in facts.matched_by \
            else "the checkpoint's format"
    d, known = _arg_value(lay, "dtype")
    if not known:
        return None, "--dtype is not known statically"
    if isinstance(d, str) and d.strip().lower() in ("half", "float16", "fp16", "bfloat16", "bf16"):
        return "bf16", f"--dtype {d}"
    if facts.weight_dtype in ("bf16", "fp16"):
        return facts.weight_dtype, "the checkpoint's format"
    if facts.weight_dtype == "fp32":
        return "bf16", "an fp32 checkpoint, loaded at 16 bits or more"
    return None, "the checkpoint's weight format is not recorded"


def _kv_bytes_per_gpu(facts, lay, tokens: int, kv_dtype) -> int:
    """One sequence of ``tokens``: the KV cache a GPU holds, or 0 when the model's cache shape is not
    the simple one."""
    if facts.architecture not in _FULL_ATTENTION or not facts.layers or not facts.head_dim:
        return 0
    width = 1 if isinstance(kv_dtype, str) and kv_dtype.lower().startswith("fp8") else 2
    layers = -(-facts.layers // lay.pp.value)
    if facts.mla:
        per_token = layers * facts.head_dim * width  # one latent per layer, on every TP rank
    elif facts.kv_heads:
        heads = max(1, facts.kv_heads // lay.tp.value)
        per_token = 2 * layers * heads * facts.head_dim * width
    else:
        return 0
    return per_token * tokens


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None:
        return
    if not ctx.notes and hardware.gpu_memory_gib(hardware.gpus(ctx).product) is None:
        # (a plain lint shows no notes: a launch on a GPU of unknown memory, most launches, is
        # passed over before its model is looked up, which every path below needs before a finding)
        return
    lay = layout(ctx)
    facts, _ = model_facts(ctx, RULE)  # (first: --verbose names the model even when the ranks are unknown)
    if facts is None or not (lay.tp.count and lay.pp.count and lay.dp.count):
        return
    if not facts.params_total:
        ctx.skip(RULE, f"no parameter count for {facts.model}")
        return
    fmt, where = _weight_format(lay, facts)
    if fmt is None:
        ctx.skip(RULE, where)
        return
    g = hardware.gpus(ctx)
    mem = hardware.gpu_memory_gib(g.product)
    if mem is None:
        ctx.skip(RULE, "the GPU product's memory is not known" if g.product else "the GPU product is not known")
        return
    gmu = lay.gmu.value if lay.gmu.present else None
    if lay.gmu.present and not lay.gmu.known:
        return
    gmu_from = ""
    if gmu is None:
        opt = ctx.surface.by_dest.get("gpu_memory_utilization")
        if opt is not None and opt.default is not None and not opt.default_computed:
            gmu = as_float(opt.default)
        else:
            # 0.34.0+: no constant default, decided at start from the device (knowledge/computed_defaults)
            from ..knowledge.computed_defaults import effective_default

            gmu, why = effective_default(ctx, lay, "gpu_memory_utilization", g.product)
            if gmu is None:
                ctx.skip(RULE, f"could not decide the GPU memory utilization: {why}")
                return
            gmu_from = f" (--gpu-memory-utilization {why})"
    if not gmu or gmu <= 0 or gmu > 1:
        return
    offload, known = _arg_value(lay, "cpu_offload_gb")
    if not known:
        return
    offload_gib = as_float(offload) or 0.0
    shards = lay.tp.value * lay.pp.value
    if lay.ep.known and lay.ep.value is True and facts.is_moe:
        shards *= lay.dp.value  # experts spread over every rank: the smallest share a GPU can hold
    from ..knowledge.params import BYTES_PER_PARAM  # (a launch whose model and GPUs are known only)

    weights = facts.params_total * BYTES_PER_PARAM[fmt] / shards
    budget = mem * _GIB * gmu + offload_gib * _GIB
    gib = f"{weights / _GIB:.1f} GiB"
    have = f"{mem} GiB x {gmu:g}" + (f" + {offload_gib:g} GiB offloaded" if offload_gib else "") + gmu_from
    layout_txt = f"tp={lay.tp.value}" + (f", pp={lay.pp.value}" if lay.pp.value > 1 else "")
    count = f"{facts.params_total / 1e9:.0f}B{'+' if facts.params_lower_bound else ''} parameters"
    span = lay.model.span or (lay.tp.span if lay.tp.present else None)
    if weights > budget:
        yield ctx.diag(RULE, f"{facts.model} ({count} at {fmt}, from {where}) needs at least {gib} of weights per GPU "
                             f"with {layout_txt}, more than the {have} one {g.product} gives: the start runs out of "
                             f"memory while loading", span)
        return
    mml = lay.max_model_len
    if mml.present and not mml.known:
        return
    tokens = human_int(mml.value) if mml.present else facts.max_positions
    if not tokens:
        return
    kv_dtype, known = _arg_value(lay, "kv_cache_dtype")
    if not known:
        return
    kv = _kv_bytes_per_gpu(facts, lay, tokens, kv_dtype)
    if kv and weights + kv > budget:
        yield ctx.diag(RULE, f"{facts.model} needs at least {gib} of weights per GPU ({count} at {fmt}, {layout_txt}) and "
                             f"{kv / _GIB:.1f} GiB of KV cache for one {tokens}-token sequence, more than the {have} a "
                             f"{g.product} gives: vLLM refuses to start when one max_model_len sequence does not fit "
                             f"(lower --max-model-len, add GPUs or quantise)", span)
