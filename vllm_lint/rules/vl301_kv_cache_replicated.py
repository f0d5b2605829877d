"""## What it does
Finds tensor-parallel layouts that store the same KV cache on several GPUs:

* MLA models (DeepSeek-V2/V3/R1/V3.2, Kimi-K2) cache one latent KV head per token, so every TP rank
  holds the full KV cache: `-tp 8` keeps 8 copies (warning);
* GQA models with more TP ranks than KV heads replicate each KV head `tp / kv_heads` times
  (Qwen3-235B-A22B, 4 KV heads, at `-tp 8`: 2 copies) (informational).

It suggests the mitigations the target release has: data-parallel attention with expert
parallelism (`--data-parallel-size N --enable-expert-parallel`, for MoE models) and decode context
parallelism (`--decode-context-parallel-size`).

## Why is this bad?
Replicated KV cache is GPU memory not spent on more concurrent sequences or longer contexts: the
same hardware serves fewer tokens. TP is still the documented choice for low-latency, low-load
serving, so this is a warning, not an error. For DeepSeek-V3.2 the V3.2 launch notes also say the
kernels were tuned for TP=1 and recommend DP/EP for throughput.

## Example
```bash
vllm serve deepseek-ai/DeepSeek-R1 -tp 8
# VL301 KV cache replicated 8x; consider -dp 8 --enable-expert-parallel or -dcp 8
```

## Fix safety
No fix: changing the layout trades latency for throughput.

## Evidence
`docs/antipatterns.md` (c) and (e): vLLM `docs/serving/context_parallel_deployment.md` (0.11.1+;
"For DeepSeek-R1, we have 1 kv-head when MLA is enabled. The typical single-node deployment with
`-tp 8` causes 8x KV cache duplication"; "For Qwen3-235B-A22B, we have 4 kv-heads ... the KV cache
duplication is 2x"), `docs/features/nixl_connector_compatibility.md` ("MLA KV cache is replicated
across TP workers"), `docs/serving/data_parallel_deployment.md` (DP attention for MLA MoE models).
GQA replication is reported as informational only: the research behind this rule found the
mechanism documented but no guidance that it should be avoided. Silent when
`--decode-context-parallel-size` > 1 is already set, and for unknown models.
"""

from ..knowledge.layout import layout, model_facts
from .base import LintContext, Rule

RULE = Rule(code="VL301", name="kv-cache-replicated",
            summary="tensor parallelism replicates the KV cache (MLA model with TP > 1, or TP > KV heads)",
            severity="warning",
            triggers=frozenset(("tensor_parallel_size",)))


def _mitigations(ctx: LintContext, facts, factor: int) -> str:
    s = ctx.surface
    out = []
    if facts.is_moe and s.lookup("--data-parallel-size") and s.lookup("--enable-expert-parallel"):
        out.append(f"data-parallel attention with expert parallelism (`--data-parallel-size {factor} "
                   f"--enable-expert-parallel` with a smaller TP size) for throughput")
    if s.lookup("--decode-context-parallel-size"):
        out.append(f"decode context parallelism (`--decode-context-parallel-size {factor}`)")
    if not out:
        return f" (vLLM {ctx.target} has neither DP attention with EP nor decode context parallelism)"
    return "; consider " + " or ".join(out)


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None:
        return
    lay = layout(ctx)
    if (lay.tp.count or 0) <= 1:
        return
    if lay.dcp.present and (not lay.dcp.known or (isinstance(lay.dcp.value, int) and lay.dcp.value > 1)):
        ctx.skip(RULE, "decode context parallelism is already configured")
        return
    facts, _ = model_facts(ctx, RULE)
    if facts is None:
        return
    tp = lay.tp.value
    span = lay.tp.span or ctx.launch.span
    if facts.heads and facts.heads % tp:
        return  # VL401: vLLM does not start at all
    if facts.mla:
        extra = ""
        if facts.architecture == "DeepseekV32ForCausalLM":
            extra = " (DeepSeek-V3.2's kernels were tuned for TP=1: its launch notes recommend DP/EP mode)"
        yield ctx.diag(RULE, f"{facts.model} uses MLA (one latent KV head): at tensor parallel size {tp} every rank "
                             f"holds the whole KV cache, {tp}x replicated{extra}" + _mitigations(ctx, facts, tp),
                       span, option="--tensor-parallel-size")
        return
    kv = facts.kv_heads
    if kv is None or tp <= kv or tp % kv:
        return  # tp % kv != 0 is VL401's error
    factor = tp // kv
    yield ctx.diag(RULE, f"{facts.model} has {kv} KV heads: at tensor parallel size {tp} each KV head is replicated "
                         f"{factor}x across ranks" + _mitigations(ctx, facts, factor), span,
                   option="--tensor-parallel-size", severity="info")
