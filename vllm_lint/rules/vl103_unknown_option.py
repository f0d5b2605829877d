"""## What it does
Finds options that no vLLM release in the database ever accepted (typos, options of another
server, options invented by a blog post) and suggests the nearest option of the target release.

## Why is this bad?
vLLM exits at startup with `unrecognized arguments`.

## Example
```bash
vllm serve m --tensor-paralel-size 2
```
`VL103 --tensor-paralel-size is not an option of any vLLM release; did you mean --tensor-parallel-size?`

## Fix safety
No automatic fix: a typo's intended option is a guess.

## Evidence
The union of every release's option strings in `flag_db/`.
"""

from ._status import args_in_state
from .base import LintContext, Rule

RULE = Rule(code="VL103", name="unknown-option", summary="option no vLLM release accepts",
            severity="error")


@RULE.check
def check(ctx: LintContext):
    for arg, st in args_in_state(ctx, "unknown"):
        what = "a keyword argument of any vLLM release's EngineArgs or LLM" if arg.style == "kwargs" \
            else "an option of any vLLM release"
        msg = f"`{arg.written}` is not {what}"
        if st.historic_matches:
            shown = ", ".join(f"`{m}`" for m in st.historic_matches[:4]) + (" ..." if len(st.historic_matches) > 4 else "")
            msg += f"; as an abbreviation it could have meant {shown}, none of which {ctx.target} accepts"
        elif st.suggestion:
            msg += f"; did you mean `{st.suggestion}`?"
        yield ctx.diag(RULE, msg, arg.report_span, option=st.name)
