"""## What it does
Checks `--tensor-parallel-size` against the model's attention heads and KV heads, with vLLM's
own rules: the number of attention heads must be divisible by TP, and the number of KV heads must
either be divisible by TP or divide it (KV heads are then replicated `tp / kv_heads` times).

## Why is this bad?
vLLM refuses to start: `ModelConfig.verify_with_parallel_config` raises "Total number of attention
heads (H) must be divisible by tensor parallel size (T)", and `QKVParallelLinear` fails the
`divide()` assertion when neither `kv_heads % tp == 0` nor `tp % kv_heads == 0`.

`hidden_size` is deliberately not checked: vLLM does not check it (gpt-oss has hidden 2880 with
64 heads of 64), although a third-party tuning guide says it must be divisible too.

## Example
```bash
vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 8   # 28 heads: 28 % 8 != 0
vllm serve microsoft/phi-4 -tp 4                                # 10 KV heads: neither 10 % 4 nor 4 % 10
```

## Fix safety
No fix: the right TP size depends on the GPUs available.

## Evidence
`docs/antipatterns.md` (b): the heads check in every release from 0.4.2 to 0.27.0
(`vllm/config.py`, `vllm/config/model.py`); the KV-heads rule in `QKVParallelLinear` and
`vllm/distributed/utils.py::ensure_divisibility` (0.27.0). Model facts come from
`vllm_lint/data/models.tsv` (a source per row), a local `config.json`, or the hub with `--online`;
MLA models are only checked for heads (their KV cache is one latent head). Unknown models: silent.
"""

from ..knowledge.layout import layout, model_facts
from .base import LintContext, Rule

RULE = Rule(code="VL401", name="tp-incompatible-with-model",
            summary="tensor parallel size does not divide the model's attention or KV heads",
            severity="error",
            triggers=frozenset(("tensor_parallel_size",)))


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None:
        return
    lay = layout(ctx)
    if (lay.tp.count or 0) <= 1:
        return
    facts, _ = model_facts(ctx, RULE)
    if facts is None:
        return
    tp = lay.tp.value
    span = lay.tp.span or ctx.launch.span
    if facts.heads:
        if facts.heads % tp:
            yield ctx.diag(RULE, f"tensor parallel size {tp} does not divide {facts.model}'s {facts.heads} attention "
                                 f"heads: vLLM refuses to start (\"Total number of attention heads ({facts.heads}) "
                                 f"must be divisible by tensor parallel size ({tp})\")", span,
                           option="--tensor-parallel-size")
            return
    else:
        ctx.skip(RULE, f"{facts.model}: attention heads unknown")
    kv = facts.kv_heads
    if facts.mla or kv is None:
        return
    if kv % tp and tp % kv:
        yield ctx.diag(RULE, f"tensor parallel size {tp} is incompatible with {facts.model}'s {kv} KV heads: vLLM needs "
                             f"{kv} % {tp} == 0 or {tp} % {kv} == 0 and fails while loading the model", span,
                       option="--tensor-parallel-size")
