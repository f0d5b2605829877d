"""## What it does
Compares the GPUs the launch's parallel layout needs, `tensor-parallel-size x pipeline-parallel-size
x data-parallel-size` (the local DP size when `--data-parallel-size-local` is given), with the GPUs
the deployment gives it: the pod's / service's / task's GPU request (Kubernetes `nvidia.com/gpu`,
compose device reservations, SkyPilot `accelerators`, dstack `resources.gpu`, `docker run --gpus N` or
a device list, podman `--device nvidia.com/gpu=N`; `--gpus all` is unknown), a batch job's
`#SBATCH --gres=gpu:N` / `--gpus-per-node=N` / `--gpus=N` or `#PBS -l select=1:ngpus=N`,
`NVIDIA_VISIBLE_DEVICES` in a container's environment, `CUDA_VISIBLE_DEVICES` in the launch's
environment (a device list the launch leaves partly unused is idle too), or `--gpus`.

## Why is this bad?
A layout larger than the GPUs available never starts (vLLM waits for or fails to create the
missing workers). A layout smaller than the request leaves paid-for GPUs idle (warning).

## Example
```yaml
containers:
- name: vllm
  args: ["--model", "meta-llama/Llama-3.1-70B-Instruct", "--tensor-parallel-size", "8"]
  resources: {limits: {nvidia.com/gpu: 4}}     # VL402 error: needs 8, gets 4
```

## Fix safety
No fix: which side is wrong (the layout or the request) is the operator's call.

## Evidence
vLLM starts one worker per GPU of `tp x pp` per data-parallel rank (`ParallelConfig.world_size`);
the check is arithmetic. It stays silent when one process does not own the whole layout (`--data-parallel-rank`,
`--data-parallel-start-rank`: external or hybrid data parallelism; a file that starts the other
nodes: `multi-node-serving.sh`, `ray start`, while the number of nodes is unknown), when the layout is multi-node (`--nnodes` > 1, Ray executor,
`--headless`, `--data-parallel-size-local` smaller than `--data-parallel-size`, or more than one
node declared by the context) unless the node count is known, when a factor is not known statically
(`-tp $TP` where the file does not give `TP` for certain: `docs/antipatterns.md`, values through variables),
and for the idle-GPU warning when the launch may carry options we cannot see (`$EXTRA_ARGS`) or
when its program trains on the same GPUs beside its vLLM engines (an RL trainer: verl, OpenRLHF,
SkyRL; `foreign_launchers.py`, `shares_gpus`).
"""

from ..foreign_launchers import FOREIGN_LAUNCHERS
from ..knowledge.hardware import gpus
from ..knowledge.layout import layout
from ..reach import layout_is_partial
from . import _facts
from .base import LintContext, Rule

RULE = Rule(code="VL402", name="layout-gpu-mismatch",
            summary="parallel layout needs more GPUs than requested, or leaves requested GPUs idle",
            severity="error",
            triggers=frozenset((_facts.GPU_COUNT, _facts.NOTES)))


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None:
        return
    g = gpus(ctx)
    if g.visible is None and g.requested is None and not ctx.notes:
        return  # (the GPUs are unknown, as for most launches: below, a plain lint would only note why)
    lay = layout(ctx)
    partial = layout_is_partial(ctx.launch, lay.by_dest, ctx.data, nodes_known=g.nodes is not None)
    if partial:
        ctx.skip(RULE, partial)
        return
    if g.visible is None and g.requested is None:
        ctx.skip(RULE, "the GPUs available to the launch are unknown (no resource request, CUDA_VISIBLE_DEVICES or --gpus)")
        return
    need = lay.gpus_per_launch()
    if need is None:
        ctx.skip(RULE, "a parallel size is not known statically")
        return
    nodes = None
    multi = False
    if lay.nnodes.present:
        if not lay.nnodes.known:
            ctx.skip(RULE, "--nnodes is not known statically")
            return
        if isinstance(lay.nnodes.value, int) and lay.nnodes.value > 1:
            multi, nodes = True, lay.nnodes.value
    if g.nodes is not None and g.nodes > 1:
        multi, nodes = True, g.nodes
    ex = str(lay.executor.value or "").lower()
    if ex == "ray" or "headless" in lay.by_dest or lay.dp_spans_nodes:
        multi = True
    span = (lay.tp.span or lay.pp.span or lay.dp.span or ctx.launch.span)
    parts = f"tp {lay.tp.value} x pp {lay.pp.value}"
    dpv = lay.dp_local.value if lay.dp_local.value is not None else lay.dp.value
    if dpv != 1:
        parts += f" x dp {dpv}"
    if multi:
        if nodes is None or g.requested is None:
            ctx.skip(RULE, "multi-node layout with an unknown number of nodes")
            return
        if lay.dp_local.value is not None:
            have = g.requested  # local DP ranks run on this node
            scope = "this node"
        else:
            have = g.requested * nodes
            scope = f"{nodes} nodes x {g.requested} GPUs"
        src = g.requested_source
    else:
        have = g.visible
        scope = f"{have} GPU{'s' if have != 1 else ''}"
        src = g.visible_source
    if have is None:
        return
    if need > have:
        yield ctx.diag(RULE, f"the parallel layout needs {need} GPUs ({parts}) but the launch gets {scope} "
                             f"(from {src}): vLLM cannot start all its workers", span)
        return
    if multi or lay.hidden:
        return
    row = FOREIGN_LAUNCHERS.get(ctx.launch.entry)
    if row is not None and row.shares_gpus:
        ctx.skip(RULE, f"idle GPUs: {row.tool} runs its own work on the GPUs beside its vLLM engines")
        return
    if g.visible_opaque:
        ctx.skip(RULE, "idle GPUs: CUDA_VISIBLE_DEVICES is not known statically (each launch may pick its own)")
        return
    shared_source = g.visible_listed or (g.requested_source or "").startswith(("#SBATCH", "#PBS"))
    if shared_source and ctx.extraction is not None and len(ctx.extraction.launches) > 1:
        ctx.skip(RULE, "idle GPUs: the file starts several launches that may share its GPUs")
        return
    if g.visible_listed:  # the process's own device list: what it leaves unused stays idle
        offered, how = g.visible, f"{g.visible} GPUs are visible (from {g.visible_source})"
    else:
        offered, how = g.requested, f"{g.requested} GPUs are requested (from {g.requested_source})"
    if need < (offered or 0):
        yield ctx.diag(RULE, f"{how} but the parallel layout uses {need} ({parts}): {_gpus(offered - need)} idle",
                       span, severity="warning")


def _gpus(n: int) -> str:
    """How many GPUs stay idle, in words: "1 GPU stays", "3 GPUs stay"."""
    return "1 GPU stays" if n == 1 else f"{n} GPUs stay"
