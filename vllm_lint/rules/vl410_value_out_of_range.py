"""## What it does
Finds numeric options whose value is outside the range vLLM accepts, where the range is known
statically:

| option | range | refused at start from |
| --- | --- | --- |
| `--gpu-memory-utilization` | (0, 1] | 0.13.0 (above 1: every release) |
| `--cpu-offload-gb`, `--swap-space` | >= 0 | 0.13.0 |
| `--max-loras`, `--max-num-seqs`, `--max-num-batched-tokens` | >= 1 | 0.13.0 |
| `--tensor-parallel-size`, `--pipeline-parallel-size`, `--data-parallel-size` | >= 1 | 0.23.0 |

**error** on releases that refuse the value when they build their configuration (the pydantic
field constraints of `CacheConfig`, `OffloadConfig`, `LoRAConfig`, `SchedulerConfig`,
`ParallelConfig`; `CacheConfig`'s own check for a utilization above 1); **warning** on earlier
releases, which accept the value and fail or misbehave later.

## Why is this bad?
A utilization above 1 or a size below its minimum is a typo (`--gpu-memory-utilization 90` for
0.90, `--max-num-seqs 0`): the server does not start, or starts without room for any sequence.

## Example
```bash
vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 90
```

## Fix safety
No fix: the intended value is not knowable.

## Evidence
The releases' sources, read from their PyPI sdists: `vllm/config.py` `CacheConfig._verify_args`
("gpu_memory_utilization > 1.0" raises, 0.4.0 - 0.12.x); `vllm/config/cache.py`,
`vllm/config/lora.py`, `vllm/config/scheduler.py` `Field(gt=0, le=1)` / `Field(ge=0)` /
`Field(ge=1)` from 0.13.0; `vllm/config/parallel.py` `Field(default=1, ge=1)` for the parallel
sizes from 0.23.0 (absent in 0.22.1). Options a release does not have are VL1xx's concern.
"""

from ..knowledge import version_in
from ..knowledge.layout import as_float, dest_of
from .base import LintContext, Rule

RULE = Rule(code="VL410", name="value-out-of-range",
            summary="a numeric option outside the range the release accepts (--gpu-memory-utilization 90)",
            severity="error")

# dest -> (low, low inclusive, high or None, release from which vLLM refuses it at start)
_RANGES = {
    "gpu_memory_utilization": (0.0, False, 1.0, "0.13.0"),
    "cpu_offload_gb": (0.0, True, None, "0.13.0"),
    "swap_space": (0.0, True, None, "0.13.0"),
    "max_loras": (1.0, True, None, "0.13.0"),
    "max_num_seqs": (1.0, True, None, "0.13.0"),
    "max_num_batched_tokens": (1.0, True, None, "0.13.0"),
    "tensor_parallel_size": (1.0, True, None, "0.23.0"),
    "pipeline_parallel_size": (1.0, True, None, "0.23.0"),
    "data_parallel_size": (1.0, True, None, "0.23.0"),
}


def _describe(low, low_incl, high) -> str:
    if high is not None:
        return f"{'[' if low_incl else '('}{low:g}, {high:g}]"
    return f">= {low:g}" if low_incl else f"> {low:g}"


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None:
        return
    for arg in ctx.args:
        dest = dest_of(arg)
        rng = _RANGES.get(dest or "")
        if rng is None or arg.value_opaque or arg.json_path or arg.value is None:
            continue
        value = as_float(arg.value)
        if value is None:
            continue
        low, low_incl, high, since = rng
        too_low = value < low or (value == low and not low_incl)
        too_high = high is not None and value > high
        if not (too_low or too_high):
            continue
        refused = version_in(ctx.target, since) or (dest == "gpu_memory_utilization" and too_high)
        name = arg.option.name if arg.option is not None else arg.canonical
        written = arg.value if isinstance(arg.value, str) else f"{value:g}"
        hint = " (a fraction of the GPU's memory: 0.9 means 90 %)" if dest == "gpu_memory_utilization" and too_high \
            else ""
        if refused:
            msg = (f"{name} {written} is outside {_describe(low, low_incl, high)}: vLLM {ctx.target} refuses it when it "
                   f"builds its configuration{hint}")
            severity = "error"
        else:
            msg = (f"{name} {written} is outside {_describe(low, low_incl, high)}: vLLM {ctx.target} accepts it, and the "
                   f"engine fails or runs without room later (releases from {since} refuse it){hint}")
            severity = "warning"
        yield ctx.diag(RULE, msg, arg.report_span, option=name, severity=severity)
