r"""## What it does
Finds expert-parallel load balancing (`--enable-eplb`) with asynchronous rebalancing
(`eplb_config.use_async`, given or on by default in the target release) and an NCCL-based
communicator (`eplb_config.communicator` `torch_nccl` or `pynccl`).

## Why is this bad?
From vLLM 0.24.0 the combination is rejected at startup (`ValueError`: "... communicator is
incompatible with async EPLB due to NCCL multi-stream conflicts. Use 'torch_gloo' or 'nixl'
instead, or leave communicator unset"): error. Earlier releases that have the `communicator`
setting accept it, and the NCCL multi-stream conflict can hang the engine: warning.

## Example
```bash
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --enable-expert-parallel --enable-eplb \
  --eplb-config '{"use_async": true, "communicator": "pynccl"}'
```

## Fix safety
No fix: the choice between `torch_gloo`, `nixl` and the default is the operator's.

## Evidence
`docs/antipatterns.md` (i): vLLM 0.24.0 `vllm/config/parallel.py::_validate_eplb_config` (absent
in 0.23.0); vllm-project/vllm#44978 "[EPLB] Reject NCCL-based EPLB communicators with async EPLB",
root cause pytorch/pytorch#174288; #33176 introduced `eplb_config.communicator`. Whether async is
the default is read from the target release's `EPLBConfig` defaults in the flag database; a
release whose `EPLBConfig` has no `communicator` field is not checked.
"""

from ..knowledge import version_in
from ..knowledge.layout import as_bool, layout
from .base import LintContext, Rule

RULE = Rule(code="VL405", name="eplb-nccl-async",
            summary="async EPLB with an NCCL-based communicator (rejected from 0.24.0, may hang before)",
            severity="error",
            triggers=frozenset(("enable_eplb",)))

_NCCL = {"torch_nccl", "pynccl"}


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None:
        return
    lay = layout(ctx)
    if not (lay.eplb.present and lay.eplb.known and lay.eplb.value is True):
        return
    if not lay.eplb_config_known:
        ctx.skip(RULE, "the EPLB config is not known statically")
        return
    comm = lay.eplb_config.get("communicator")
    if not isinstance(comm, str) or comm.lower() not in _NCCL:
        return
    fields = (ctx.surface.json_configs.get("eplb_config") or {}).get("fields") or {}
    if "use_async" in lay.eplb_config:
        use_async = as_bool(lay.eplb_config["use_async"])
        how = "use_async is set"
    else:
        d = (fields.get("use_async") or {}).get("default")
        use_async = d is True
        how = f"use_async defaults to true in vLLM {ctx.target}"
    if not use_async:
        return
    span = next((a.report_span for a in lay.eplb_args if a.report_span), None) or lay.eplb.span
    if version_in(ctx.target, "0.24.0"):
        yield ctx.diag(RULE, f"EPLB communicator `{comm}` with async EPLB ({how}) is rejected at startup by vLLM "
                             f"{ctx.target}: use `torch_gloo` or `nixl`, or leave the communicator unset", span,
                       option="--eplb-config")
        return
    if "communicator" not in fields:
        ctx.skip(RULE, f"vLLM {ctx.target} has no EPLB communicator setting")
        return
    yield ctx.diag(RULE, f"EPLB communicator `{comm}` with async EPLB ({how}) can hang on NCCL multi-stream "
                         f"conflicts (vLLM 0.24.0 rejects this combination): use `torch_gloo` or `nixl`", span,
                   option="--eplb-config", severity="warning")
