"""## What it does
Finds `VLLM_*` environment variables that an earlier release read and the target release no
longer reads (`VLLM_USE_V1` after the V0 engine was removed, `VLLM_ATTENTION_BACKEND` after it
became `--attention-backend`), in `export` lines, `env:` blocks, `ENV`, `docker run -e`, and
`os.environ[...]`.

## Why is this bad?
vLLM ignores unknown variables, so nothing fails: the setting the author relied on silently
stops applying (a backend choice, a V0 fallback, a memory knob).

## Example
```yaml
env:
  - name: VLLM_USE_V1
    value: "0"
```
At 0.27.1: `VL201 VLLM_USE_V1 is no longer read by vLLM 0.27.1 (last read by 0.10.2)`.

## Fix safety
No automatic fix: removing the variable is only a cleanup when its effect is gone anyway, and
the replacement (if any) is named in the message.

## Evidence
The keys of `vllm/envs.py`'s `environment_variables` at each release, in `flag_db/`.
"""

from ._env_status import env_in_state
from .base import LintContext, Rule

RULE = Rule(code="VL201", name="removed-env-var", summary="VLLM_ variable the target no longer reads",
            severity="warning")


@RULE.check
def check(ctx: LintContext):
    for env, st in env_in_state(ctx, "removed"):
        msg = f"`{env.name}` is no longer read by vLLM {ctx.target} (last read by {st.last})"
        if st.successor:
            msg += f"; use `{st.successor}`"
        if st.note:
            msg += f": {st.note}"
        yield ctx.diag(RULE, msg, env.name_span or env.value_span, option=env.name)
