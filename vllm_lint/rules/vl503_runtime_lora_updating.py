"""## What it does
Finds `VLLM_ALLOW_RUNTIME_LORA_UPDATING` enabled in a launch's environment (`1` or `true`, case
insensitive, which is what vLLM reads as on).

## Why is this bad?
With it, the API server exposes `/v1/load_lora_adapter` and `/v1/unload_lora_adapter` and lets LoRA
resolver plugins load adapters named in requests: any client that can reach the server can make it
load an adapter from a local path or the hub. vLLM's LoRA documentation says the feature carries
security risks and should only be used in an isolated, fully trusted environment.

## Example
```yaml
env:
  - name: VLLM_ALLOW_RUNTIME_LORA_UPDATING
    value: "True"
```

## Fix safety
No fix: whether the environment is isolated is not visible in the file. Load adapters at start
(`--lora-modules name=path`) where they are known in advance.

## Evidence
vLLM 0.33.0 `docs/features/lora.md` ("Dynamically serving LoRA Adapters": the security warning)
and `vllm/envs.py` (the variable is on for `1` / `true`, default off). The variable exists from vLLM
0.6.x; on releases without it the variable is unknown and this rule stays silent.
"""

from ..knowledge.layout import env_lookup
from .base import LintContext, Rule

RULE = Rule(code="VL503", name="runtime-lora-updating",
            summary="VLLM_ALLOW_RUNTIME_LORA_UPDATING lets any API client load LoRA adapters",
            severity="warning",
            triggers=frozenset(("VLLM_ALLOW_RUNTIME_LORA_UPDATING",)))

_NAME = "VLLM_ALLOW_RUNTIME_LORA_UPDATING"


@RULE.check
def check(ctx: LintContext):
    if _NAME not in (ctx.surface.env or {}):
        return
    e = env_lookup(ctx, _NAME, file_wide=ctx.launch is None)
    if e is None or e.value_opaque or e.value is None:
        return
    if e.value.strip().lower() not in ("1", "true"):
        return
    yield ctx.diag(RULE, f"{_NAME}={e.value.strip()} lets any client of the API load LoRA adapters from paths or "
                         "the hub at runtime; enable it only where every client is trusted, or load adapters at "
                         "start with --lora-modules", e.name_span or e.value_span, option=_NAME)
