r"""## What it does
Finds `--gpu-memory-utilization` at or above a threshold (default 0.95, setting
`moe-gpu-memory-utilization-threshold`) on a mixture-of-experts model where expert parallelism is
on with an all-to-all backend that allocates its own buffers (DeepEP, pplx, MORI, NIXL-EP, UCCL),
from `--all2all-backend` or, on older releases, `VLLM_ALL2ALL_BACKEND`. These buffers are created
after vLLM's memory profiling, so the KV cache budget does not leave room for them.

Elsewhere (TP-only MoE, or EP with the default all-gather/reduce-scatter backend) the mechanism
does not apply and there is no public evidence that 0.95 fails: the rule stays silent, and
`--verbose` says why it did not apply.

## Why is this bad?
vLLM sizes the KV cache as `gpu_memory_utilization x total memory` minus what it measured while
profiling (weights, peak activations, non-torch allocations made until then, CUDA graphs).
All-to-all buffers allocated later (DeepEP sizes them with `VLLM_DEEPEP_BUFFER_SIZE_MB`, 1 GiB by
default, plus RDMA buffers) come out of the remaining headroom; at 0.95 there may be none, and
the engine runs out of memory while creating them or under load.

A third-party tuning guide says to cap MoE at 0.85 (dense 0.92). Those numbers have no source in
vLLM or its docs; the guide's stricter cap is available as an opt-in: set
`moe-gpu-memory-utilization-threshold = 0.85` (and `moe-gpu-memory-utilization-cap = 0.85`).

## Example
```bash
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel \
  --all2all-backend deepep_low_latency --gpu-memory-utilization 0.95
```

## Fix safety
Unsafe (`--unsafe-fixes`): sets the value to `moe-gpu-memory-utilization-cap` (default 0.90). This
shrinks the KV cache, so fewer sequences run concurrently; vLLM's `--kv-cache-memory-bytes` (where
the release has it) or `VLLM_DEEPEP_BUFFER_SIZE_MB` may be the better lever.

## Evidence
`docs/antipatterns.md` (a): vLLM 0.27.0 `vllm/utils/mem_utils.py::memory_profiling` and
`vllm/v1/worker/gpu_worker.py` (what profiling counts), `vllm/distributed/device_communicators/all2all.py`
and `VLLM_DEEPEP_BUFFER_SIZE_MB` in `vllm/envs.py`; failure reports uccl-project/uccl#924 (EP16
DeepEP OOM during buffer allocation even at 0.70), HYGON-AI/vllm-plugin-das#125, deepseek-ai/DeepEP#510;
vllm-project/vllm#1298 (maintainer: "0.9 (default) to 0.95 is safe" for dense models). Verdict:
mechanism plausible for EP all-to-all backends, thresholds unverified. Unknown models: silent.
"""

from ..knowledge import value_edit
from ..knowledge.layout import layout, model_facts
from .base import Fix, LintContext, Rule, RuleSetting

RULE = Rule(code="VL302", name="moe-high-gpu-memory-utilization",
            summary="high --gpu-memory-utilization on a MoE model (all-to-all buffers are allocated after profiling)",
            severity="warning", fix="unsafe",
            settings=(RuleSetting("moe-gpu-memory-utilization-threshold", "number", 0.95,
                                  "lowest --gpu-memory-utilization reported on a MoE model.", 0.0, 1.0),
                      RuleSetting("moe-gpu-memory-utilization-cap", "number", 0.90,
                                  "the value its unsafe fix sets.", 0.0, 1.0)),
            triggers=frozenset(("gpu_memory_utilization",)))

_BUFFERED = ("deepep", "pplx", "mori", "nixl", "uccl")


def _backend(ctx: LintContext, lay) -> tuple:
    """(backend name or None, where it came from, known)."""
    a = lay.all2all
    if a.present:
        if not a.known:
            return None, None, False
        return str(a.value), ("VLLM_ALL2ALL_BACKEND" if a.env is not None else "--all2all-backend"), True
    opt = ctx.surface.lookup("--all2all-backend")
    if opt is not None and isinstance(opt.default, str):
        return opt.default, f"the default of vLLM {ctx.target}", True
    env = ctx.surface.env.get("VLLM_ALL2ALL_BACKEND")
    if env and isinstance(env.get("default"), str):
        return env["default"], f"the default of vLLM {ctx.target}", True
    return None, None, True


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None:
        return
    lay = layout(ctx)
    g = lay.gmu
    if not g.present or not g.known or g.value is None:
        return
    threshold = float(ctx.settings.moe_gpu_memory_utilization_threshold)
    if g.value < threshold - 1e-9:
        return
    facts, _ = model_facts(ctx, RULE)
    if facts is None:
        return
    if not facts.is_moe:
        return
    ep_on = lay.ep.present and lay.ep.known and lay.ep.value is True
    backend, src, known = _backend(ctx, lay)
    buffered = bool(backend) and any(b in backend.lower() for b in _BUFFERED)
    val = f"{g.value:g}"
    if ep_on and buffered:
        msg = (f"gpu memory utilization {val} on MoE model {facts.model} with expert parallelism and the `{backend}` "
               f"all-to-all backend ({src}): its buffers are allocated after vLLM's memory profiling and are not in the "
               f"KV-cache budget, so this leaves little room for them (public OOM reports exist for DeepEP); the "
               f"0.85 cap some guides give is a rule of thumb, not a measured limit")
    else:
        if ep_on and not known:
            ctx.skip(RULE, "the all-to-all backend is not known statically")
            return
        why = ("expert parallelism is off" if not ep_on else
               f"the `{backend}` all-to-all backend allocates no separate buffers" if backend else
               "no all-to-all backend is configured")
        # a finding that says its own mechanism does not apply is noise: silent, said in --verbose
        ctx.skip(RULE, f"gpu memory utilization {val} on MoE model {facts.model}: {why}, so the all-to-all "
                       "buffer mechanism does not apply")
        return
    fix = None
    cap = float(ctx.settings.moe_gpu_memory_utilization_cap)
    if g.arg is not None and cap < g.value:
        edits = value_edit(g.arg, f"{cap:g}")
        if edits:
            fix = Fix(edits, "unsafe", f"Set gpu memory utilization to {cap:g}")
    yield ctx.diag(RULE, msg, g.span, fix=fix, option="--gpu-memory-utilization")
