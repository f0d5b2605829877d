"""## What it does
Finds `--max-model-len` (or `max_model_len=` / `max-model-len:`) above the model's maximum
positions (`max_position_embeddings`, extended by the model's own rope scaling where vLLM derives
a longer limit) when `VLLM_ALLOW_LONG_MAX_MODEL_LEN` is not set. Human-readable values are read as
vLLM reads them (`32k` = 32000, `32K` = 32768); `auto` and `-1` (the model's own limit) are fine.

## Why is this bad?
vLLM refuses to start: "User-specified max_model_len (X) is greater than the derived max_model_len
(Y) ... set VLLM_ALLOW_LONG_MAX_MODEL_LEN=1" (`ModelConfig`, `_get_and_verify_max_len`). Setting
the variable starts the engine but "may lead to incorrect model outputs or CUDA errors" unless the
model really supports the length (e.g. with rope scaling given through `--hf-overrides`).

## Example
```bash
vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 128k   # 128000 > 32768
```

## Fix safety
No fix: lowering the length changes what the service accepts; raising the limit needs a rope
scaling decision.

## Evidence
vLLM `vllm/config/model.py::_get_and_verify_max_len` (and `vllm/config.py` before 0.11) and the
`VLLM_ALLOW_LONG_MAX_MODEL_LEN` entry of `vllm/envs.py`; `human_readable_int` in
`vllm/engine/arg_utils.py`. Max positions come from `vllm_lint/data/models.tsv` (a source per
row) or the model's `config.json`. Silent for unknown models and when the launch overrides rope
scaling or the HF config (`--rope-scaling`, `--hf-overrides`, `--rope-theta`), which changes the
derived limit.
"""

from ..knowledge.layout import as_bool, env_lookup, human_int, layout, model_facts
from .base import LintContext, Rule

RULE = Rule(code="VL403", name="max-model-len-above-model",
            summary="--max-model-len above the model's maximum positions without VLLM_ALLOW_LONG_MAX_MODEL_LEN",
            severity="error",
            triggers=frozenset(("max_model_len",)))

_OVERRIDES = ("rope_scaling", "hf_overrides", "rope_theta")


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None:
        return
    lay = layout(ctx)
    mml = lay.max_model_len
    if not mml.present or not mml.known:
        return
    value = mml.arg.value if mml.arg is not None else None
    n = human_int(value)
    if n is None:
        return
    if any(d in lay.by_dest for d in _OVERRIDES):
        ctx.skip(RULE, "the launch overrides rope scaling / the HF config")
        return
    allow = env_lookup(ctx, "VLLM_ALLOW_LONG_MAX_MODEL_LEN")
    if allow is not None and (allow.value_opaque or as_bool(allow.value)):
        return
    facts, _ = model_facts(ctx, RULE)
    if facts is None:
        return
    if facts.max_positions is None:
        ctx.skip(RULE, f"{facts.model}: maximum positions unknown")
        return
    if n <= facts.max_positions:
        return
    shown = f"{value}" if str(value) == str(n) else f"{value} = {n}"
    yield ctx.diag(RULE, f"max model length {shown} is above {facts.model}'s {facts.max_positions} maximum positions: "
                         f"vLLM refuses to start unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 is set (and then only "
                         f"the model's rope scaling makes the extra length meaningful)", mml.span,
                   option="--max-model-len")
