"""## What it does
Finds `VLLM_*` environment variables that only releases after the target read.

## Why is this bad?
The older image ignores the variable; the behaviour the author expects does not happen.

## Example
`VL203 VLLM_X is read from vLLM 0.20.0; the target 0.9.2 ignores it`

## Fix safety
No automatic fix.

## Evidence
First release of each variable in `flag_db/index.json`.
"""

from .base import VLLM_VARIABLES, LintContext, Rule

RULE = Rule(code="VL203", name="env-var-too-new", summary="VLLM_ variable read only after the target",
            severity="warning",
            triggers=frozenset((VLLM_VARIABLES,)))


@RULE.check
def check(ctx: LintContext):
    from ._env_status import env_in_state  # (at the check: a launch setting no variable never imports it; issue 31)

    for env, st in env_in_state(ctx, "too-new"):
        yield ctx.diag(RULE, f"`{env.name}` is read from vLLM {st.first}; the target {ctx.target} ignores it",
                       env.name_span or env.value_span, option=env.name)
