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
The better fix is a newer image. The deletion of the option is unsafe (`--unsafe-fixes`): the
target refuses the launch with it, so the launch starts only without it, but what it set is lost
(`vllm-lint upgrade` applies these deletions and lists each for a person to check).

## Evidence
The first release of each option in `flag_db/index.json`.
"""

from ._status import args_in_state, delete_edits, unaccepted
from .base import Fix, LintContext, Rule, option_state

RULE = Rule(code="VL104", name="option-too-new", summary="option first accepted after the target release",
            severity="error", fix="unsafe",
            triggers=frozenset((option_state("too-new"),)))


@RULE.check
def check(ctx: LintContext):
    for arg, st in args_in_state(ctx, "too-new"):
        refused, severity = unaccepted(ctx, f"the target {ctx.target} rejects it")
        if severity:
            refused = f"at the target {ctx.target} {refused}"
        msg = f"{st.shown} is accepted from vLLM {st.first}; {refused}"
        fix = None
        edits = delete_edits(ctx, arg) if severity is None else None  # (refused: not a wrapper that drops it)
        if edits:
            fix = Fix(edits, "unsafe", f"Remove `{arg.written}` ({ctx.target} refuses it; what it set is lost)")
        yield ctx.diag(RULE, msg, arg.report_span, fix=fix, option=st.name, severity=severity)
