"""## What it does
Finds `NCCL_CUMEM_ENABLE=0` in the environment of a launch that runs on Grace-Blackwell systems
(GB200 / GB300, NVL72 racks; from the launch's node selectors or task resources, or `--gpu`), and
multi-node launches of vLLM 0.4.3 - 0.8.4 on such systems, where vLLM itself forced the variable
to 0. When the GPU product is unknown but the launch is multi-node, the finding is informational.

## Why is this bad?
Multi-node NVLink (MNNVL) in NCCL is built on the cuMem APIs: with `NCCL_CUMEM_ENABLE=0`, NCCL
falls back to TCP or InfiniBand between the nodes of an NVL72 rack, and cross-node collectives
lose the NVLink bandwidth the hardware was bought for.

## Example
```yaml
nodeSelector: {nvidia.com/gpu.product: NVIDIA-GB200}
env: [{name: NCCL_CUMEM_ENABLE, value: "0"}]
```

## Fix safety
No fix: deleting the variable may matter for other software in the container.

## Evidence
`docs/antipatterns.md` (h): vllm-project/vllm#16992 (youkaichao: "When NCCL_CUMEM_ENABLE=0 is
set, NCCL will use TCP or IB for cross-node communication, and multi-node NVLink will be
disabled"), NVIDIA/nccl#1159 (MNNVL uses cuMem), vllm-project/vime#103 (`MNNVL 0` on GB200 NVL72 with
cuMem off). vLLM source: 0.4.3 - 0.8.4 set `NCCL_CUMEM_ENABLE=0` unconditionally
(`worker_base.py`, `vllm/__init__.py`, `env_override.py`); 0.8.5 skips it when IMEX channels exist;
from 0.10.2 vLLM no longer sets it. Single-node launches on other GPUs are not reported.
"""

from ..knowledge import version_in
from ..knowledge.hardware import gpus
from ..knowledge.layout import env_lookup, layout
from . import _facts
from .base import LintContext, Rule

RULE = Rule(code="VL304", name="nccl-cumem-disabled",
            summary="NCCL_CUMEM_ENABLE=0 disables multi-node NVLink on GB200/GB300",
            severity="warning",
            triggers=frozenset(("NCCL_CUMEM_ENABLE", _facts.GRACE_BLACKWELL)))


def _multi_node(ctx: LintContext) -> bool:
    if ctx.launch is None:
        return False
    lay = layout(ctx)
    g = gpus(ctx)
    if g.nodes is not None and g.nodes > 1:
        return True
    if (lay.nnodes.count or 0) > 1:
        return True
    if "headless" in lay.by_dest:
        return True
    return lay.dp_spans_nodes


@RULE.check
def check(ctx: LintContext):
    g = gpus(ctx)
    e = env_lookup(ctx, "NCCL_CUMEM_ENABLE", file_wide=ctx.launch is not None)
    gb = g.grace_blackwell  # (whether it is a multi-node launch: asked only where it decides)
    if e is not None and not e.value_opaque and (e.value or "").strip() == "0":
        span = e.name_span or e.value_span or (ctx.launch.span if ctx.launch else None)
        if gb:
            yield ctx.diag(RULE, f"NCCL_CUMEM_ENABLE=0 on {g.product} (from {g.product_source}): NCCL's multi-node "
                                 f"NVLink needs cuMem, so cross-node traffic falls back to TCP/InfiniBand", span,
                           option="NCCL_CUMEM_ENABLE")
        elif g.product is None and _multi_node(ctx):
            yield ctx.diag(RULE, "NCCL_CUMEM_ENABLE=0 in a multi-node launch: on GB200/GB300 (NVL72) systems it "
                                 "disables multi-node NVLink (NCCL falls back to TCP/InfiniBand); elsewhere it is "
                                 "harmless", span, option="NCCL_CUMEM_ENABLE", severity="info")
        elif g.product is None:
            ctx.skip(RULE, "the GPU product is unknown (use --gpu)")
        return
    if e is None and gb and ctx.launch is not None and _multi_node(ctx) and version_in(ctx.target, "0.4.3", "0.8.5"):
        yield ctx.diag(RULE, f"vLLM {ctx.target} sets NCCL_CUMEM_ENABLE=0 itself, which disables multi-node NVLink "
                             f"on {g.product}: use vLLM 0.8.5 or later for multi-node Grace-Blackwell deployments",
                       ctx.launch.span, option="NCCL_CUMEM_ENABLE")
