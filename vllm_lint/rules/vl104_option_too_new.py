"""## What it does
Finds options that the target release does not accept yet: they first appear in a later release.

## Why is this bad?
A config written for a newer vLLM is deployed on an older image (a pinned tag, a stale base
image): it fails at startup with `unrecognized arguments`. Under a wrapper that reads its argv
with `parse_known_args` (KServe's huggingfaceserver) the option is dropped instead: the launch
starts without it, a warning.

## Example
```dockerfile
FROM vllm/vllm-openai:v0.9.2
CMD ["--model", "m", "--async-scheduling"]
```
`VL104 --async-scheduling is accepted from vLLM 0.10.0; the target 0.9.2 rejects it`

## Fix safety
No fix: upgrade the image, or drop the option by hand.

## Evidence
The first release of each option in `flag_db/index.json`.
"""

from ._status import args_in_state, unaccepted
from .base import LintContext, Rule

RULE = Rule(code="VL104", name="option-too-new", summary="option first accepted after the target release",
            severity="error")


@RULE.check
def check(ctx: LintContext):
    for arg, st in args_in_state(ctx, "too-new"):
        refused, severity = unaccepted(ctx, f"the target {ctx.target} rejects it")
        if severity:
            refused = f"at the target {ctx.target} {refused}"
        msg = f"{st.shown} is accepted from vLLM {st.first}; {refused}"
        yield ctx.diag(RULE, msg, arg.report_span, option=st.name, severity=severity)
