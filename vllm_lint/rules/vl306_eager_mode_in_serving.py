"""## What it does
Reports `--enforce-eager`, `-O0` / `--optimization-level 0` and a compilation config with level or
mode 0 in a serving launch (`vllm serve`, the OpenAI API server, a serving config file or chart).
Off by default: enable it with `--select VL306`.

## Why is this bad?
Eager mode turns off CUDA graphs (and `-O0` also torch.compile): decode steps pay the kernel
launch overhead of every layer, which costs throughput and latency in steady-state serving. It is
a legitimate choice for debugging, for models or platforms where graphs fail, to save the memory
graphs take, or to cut start-up time, so it is only informational and not enabled by default.

## Example
```bash
vllm serve meta-llama/Llama-3.1-8B-Instruct --enforce-eager
```

## Fix safety
No fix: eager mode is often set on purpose.

## Evidence
vLLM's help text for `--enforce-eager` ("Whether to always use eager-mode PyTorch. If True, we will
disable CUDA graph and always execute the model in eager mode") and the `-O` levels
(`--optimization-level`, 0.12+; `-O` as `--compilation-config` before). No size of the slowdown
is claimed: it depends on model, batch size and hardware.
"""

from ..foreign_launchers import FOREIGN_LAUNCHERS
from ..knowledge.layout import as_bool, as_int, as_json
from .base import LintContext, Rule

RULE = Rule(code="VL306", name="eager-mode-in-serving",
            summary="--enforce-eager / -O0 in a serving deployment (CUDA graphs off)",
            severity="info", default_enabled=False)


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None or ctx.launch.style == "kwargs" or ctx.launch.entry in FOREIGN_LAUNCHERS \
            or ctx.launch.entry.startswith("vllm bench"):
        return  # LLM(...) / EngineArgs(...), other tools' launchers and the benchmarks: offline or embedded uses
    for arg in ctx.args:
        if arg.positional or arg.option is None and not arg.o_shorthand:
            continue
        dest = arg.option.dest if arg.option is not None else None
        if dest == "enforce_eager":
            v = True if arg.option and arg.written in arg.option.negations else None
            if v:
                continue
            on = True if arg.value is None else as_bool(arg.value)
            if on and not arg.value_opaque:
                yield ctx.diag(RULE, "eager mode (--enforce-eager) disables CUDA graphs in a serving launch: decode "
                                     "steps pay per-kernel launch overhead", arg.report_span, option="--enforce-eager")
        elif dest == "optimization_level" or (arg.resolved_string == "--optimization-level"):
            if as_int(arg.value) == 0:
                yield ctx.diag(RULE, "optimization level 0 (-O0) disables torch.compile and CUDA graphs in a serving "
                                     "launch", arg.report_span, option="--optimization-level")
        elif dest == "compilation_config":
            level = None
            if arg.json_path in ("level", "mode"):
                level = as_int(arg.value)
            elif arg.json_path is None:
                d = as_json(arg.value)
                if d is not None:
                    level = as_int(d.get("mode", d.get("level")))
                elif arg.o_shorthand:
                    level = as_int(arg.value)
            if level == 0:
                yield ctx.diag(RULE, "compilation level 0 disables torch.compile (and with it compiled CUDA graphs) in "
                                     "a serving launch", arg.report_span, option="--compilation-config")
