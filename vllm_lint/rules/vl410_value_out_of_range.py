"""## What it does
Finds numeric options whose value is outside the range vLLM accepts, where the range is known
statically:

| option | range | refused at start from |
| --- | --- | --- |
| `--gpu-memory-utilization` | (0, 1] | 0.13.0 (above 1: every release) |
| `--cpu-offload-gb`, `--swap-space` | >= 0 | 0.13.0 |
| `--max-loras` (with `--enable-lora`: without it no `LoRAConfig` is built), `--max-num-seqs`, `--max-num-batched-tokens` | >= 1 | 0.13.0 |
| `--tensor-parallel-size`, `--pipeline-parallel-size`, `--data-parallel-size` | >= 1 | 0.23.0 |

Beyond these, any number start-up hands unchanged to a config class whose field declares literal
bounds (`start_fields` of the release file, scraped from the sdist: `-dcp 0`, ParallelConfig's
`Field(ge=1)`; `--dbo-prefill-token-threshold -1`) is an error at the releases that have the field,
and so is an item of a list option below the bound an after validator of the class checks
(`start_fields.<dest>.items`: 0.20+ `--numa-bind-nodes 0 -1`, ParallelConfig refuses a negative
node; only the last `--numa-bind-nodes` counts).

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

from __future__ import annotations

from ..knowledge import version_in
from ..knowledge.layout import as_float, dest_of
from .base import LintContext, Rule

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

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

# dest -> the switch without which start-up never builds the class that checks it
# (`lora_config = LoRAConfig(max_loras=...) if self.enable_lora else None`, 0.13.0-0.34.0)
_BUILT_ONLY_WITH = {"max_loras": "enable_lora"}


def _describe(low, low_incl, high) -> str:
    if high is not None:
        return f"{'[' if low_incl else '('}{low:g}, {high:g}]"
    return f">= {low:g}" if low_incl else f"> {low:g}"


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None:
        return
    fields = None
    for arg in ctx.args:
        dest = dest_of(arg)
        rng = _RANGES.get(dest or "")
        if rng is None and arg.option is not None and arg.option.nargs in ("+", "*") and not arg.json_path:
            found = _scraped_items(ctx, arg, dest)
            if found is not None:
                yield found
            continue
        if rng is None and not (arg.value_opaque or arg.json_path or arg.value is None):
            if fields is None:
                fields = ctx.surface.start_fields
            fact = fields.get(dest or "")  # (most options: no config-class field constraints)
            if fact and fact.get("constraints"):
                found = _scraped(ctx, arg, dest)
                if found is not None:
                    yield found
            continue
        if rng is None or arg.value_opaque or arg.json_path or arg.value is None:
            continue
        value = as_float(arg.value)
        if value is None:
            continue
        low, low_incl, high, since = rng
        needs = _BUILT_ONLY_WITH.get(dest)
        if needs is not None and not _switched_on(ctx, needs):
            ctx.skip(RULE, f"{dest} {arg.value}: its config is built only with `{needs}`, which the launch does not set")
            continue
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


def _switched_on(ctx: LintContext, dest: str) -> bool:
    """The launch turns the switch on (or it is not known: a value that is a variable)."""
    on = False
    for a in ctx.args:
        if dest_of(a) != dest:
            continue
        if a.value_opaque:
            return True
        if a.option is not None and a.written in a.option.negations:
            on = False
        elif isinstance(a.value, bool):
            on = a.value
        elif isinstance(a.value, str) and a.value.strip().lower() in ("false", "0", "no", "off"):
            on = False
        else:
            on = True
    return on


_BOUNDS = (("gt", "> {}", lambda a, b: a > b), ("ge", ">= {}", lambda a, b: a >= b),
           ("lt", "< {}", lambda a, b: a < b), ("le", "<= {}", lambda a, b: a <= b))


def _scraped(ctx: LintContext, arg, dest: Optional[str]):
    """A number outside the bounds of the config-class field start-up hands it to unchanged
    (``start_fields`` of the release file: ``-dcp 0``, ParallelConfig's ``ge=1``)."""
    fact = ctx.surface.start_fields.get(dest or "")
    if not fact or not fact.get("constraints"):
        return None
    value = as_float(arg.value)
    if value is None:
        return None
    broken = [text.format(f"{bound:g}") for key, text, ok in _BOUNDS
              for bound in [fact["constraints"].get(key)]
              if isinstance(bound, (int, float)) and not isinstance(bound, bool) and not ok(value, bound)]
    if not broken:
        return None
    name = arg.option.name if arg.option is not None else arg.canonical
    written = arg.value if isinstance(arg.value, str) else f"{value:g}"
    return ctx.diag(RULE, f"{name} {written} is outside {broken[0]}: vLLM {ctx.target} refuses it when it builds its "
                          f"configuration ({fact['class']})", arg.report_span, option=name, severity="error")


def _scraped_items(ctx: LintContext, arg, dest: Optional[str]):
    """An item of a list option below the bound a config class's ``after`` validator checks
    (``start_fields.<dest>.items.ge``: 0.20.0+ ``--numa-bind-nodes -1``); only the last occurrence
    of the option counts (argparse keeps the last list)."""
    fact = ctx.surface.start_fields.get(dest or "")
    bound = ((fact or {}).get("items") or {}).get("ge")
    if not isinstance(bound, int) or isinstance(bound, bool):
        return None
    if any(a is not arg and a.option is not None and a.option.dest == dest and not a.json_path
           for a in ctx.args[ctx.args.index(arg) + 1:]):
        return None
    for t in arg.value_tokens:
        value = None if t.opaque else as_float(t.text)
        if value is not None and value < bound:
            name = arg.option.name
            return ctx.diag(RULE, f"{name} {t.text} is below {bound}: vLLM {ctx.target} refuses it when it builds its "
                                  f"configuration ({fact['class']}.{dest}: every item >= {bound})",
                            t.span or arg.report_span, option=name, severity="error")
    return None
