"""## What it does
Reports environment overrides whose effect is tied to a release range or costs more than it
gives (informational):

* `VLLM_MOE_USE_DEEP_GEMM=1` with a block-FP8 MoE model at an MoE tensor-parallel size of 8 or
  more (TP x DP without expert parallelism) on vLLM 0.12.0 - 0.14.x: it overrides vLLM's default of
  not using DeepGEMM for MoE at TP >= 8, which was chosen because it was slower there;
* `VLLM_DISABLE_COMPILE_CACHE=1`: every start recompiles the model (minutes on large models). It
  was advised for Llama-4 when toggling `attn_temperature_tuning` (via
  `--override-generation-config`) in the v0.8.3 era; that case is not reported on 0.8.x.

## Why is this bad?
Overrides copied from old guides outlive the reason they were added: the DeepGEMM one forces a
path vLLM's maintainers measured as slower at TP 8; the compile-cache one slows every cold start.

## Example
```bash
VLLM_MOE_USE_DEEP_GEMM=1 vllm serve deepseek-ai/DeepSeek-V3 -tp 8   # 0.12.0 - 0.14.x
```

## Fix safety
No fix.

## Evidence
`docs/antipatterns.md` (f) and (g): vLLM 0.12.0 - 0.14.1 `quantization/fp8.py` /
`fused_moe/oracle/fp8.py` ("DeepGEMM MoE is disabled by default when TP size is >= 8. Set
VLLM_MOE_USE_DEEP_GEMM=1 to enable it."), rationale vllm-project/vllm#29346; the heuristic is gone
in 0.16.0 (0.15.x not verified, so not reported). The guide's "regressed before v0.19.1" claim is
not supported (no relevant change between 0.19.0 and 0.19.1) and is not reported.
vllm-project/vllm-project.github.io#48 (the Llama-4 advice and the reviewers' pushback),
vllm-project/vllm#16573. Block-FP8 comes from `vllm_lint/data/models.tsv` or the model's
`config.json` (`quantization_config.weight_block_size`); unknown models: the DeepGEMM case stays silent.
"""

from ..knowledge import version_in
from ..knowledge.layout import as_bool, env_lookup, layout, model_facts
from .base import LintContext, Rule

RULE = Rule(code="VL305", name="release-bound-env-override",
            summary="environment override that only costs time or overrides a tuned default in the target release",
            severity="info",
            triggers=frozenset(("VLLM_MOE_USE_DEEP_GEMM", "VLLM_DISABLE_COMPILE_CACHE")))


def _on(e) -> bool:
    return e is not None and not e.value_opaque and as_bool(e.value) is True


@RULE.check
def check(ctx: LintContext):
    t = ctx.target
    dg = env_lookup(ctx, "VLLM_MOE_USE_DEEP_GEMM", file_wide=ctx.launch is not None)
    if _on(dg) and ctx.launch is not None and version_in(t, "0.12.0", "0.15.0"):
        lay = layout(ctx)
        ep_on = lay.ep.known and lay.ep.value is True
        if lay.tp.count is not None and lay.dp.count is not None and not ep_on and lay.ep.known:
            moe_tp = lay.tp.value * lay.dp.value
            if moe_tp >= 8:
                facts, _ = model_facts(ctx, RULE)
                if facts is not None and facts.is_moe and facts.block_fp8:
                    yield ctx.diag(RULE, f"VLLM_MOE_USE_DEEP_GEMM=1 overrides vLLM {t}'s default of not using DeepGEMM for "
                                         f"block-FP8 MoE at tensor parallel size >= 8 (here {moe_tp}), chosen because it "
                                         f"was slower there (vllm-project/vllm#29346); benchmark without it",
                                   dg.name_span or dg.value_span, option="VLLM_MOE_USE_DEEP_GEMM")
                elif facts is not None and facts.block_fp8 is None:
                    ctx.skip(RULE, f"{facts.model}: quantization unknown")
    cc = env_lookup(ctx, "VLLM_DISABLE_COMPILE_CACHE", file_wide=ctx.launch is not None)
    if _on(cc) and (ctx.surface.env.get("VLLM_DISABLE_COMPILE_CACHE") is not None or not ctx.surface.env):
        if ctx.launch is not None and version_in(t, "0.8.0", "0.9.0"):
            lay = layout(ctx)
            ogc = lay.by_dest.get("override_generation_config")
            if ogc is not None and "attn_temperature_tuning" in str(ogc.value):
                return  # the one documented use (Llama-4, v0.8.3 era)
        yield ctx.diag(RULE, "VLLM_DISABLE_COMPILE_CACHE=1 makes every start recompile the model (minutes on large "
                             "models); the Llama-4 advice behind it applied only when toggling attn_temperature_tuning "
                             "in the v0.8.3 era. Prefer clearing or keying the cache ($VLLM_CACHE_ROOT/torch_compile_cache)",
                       cc.name_span or cc.value_span, option="VLLM_DISABLE_COMPILE_CACHE")
