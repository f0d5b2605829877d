"""## What it does
Finds options that no vLLM release in the database ever accepted (typos, options of another
server, options invented by a blog post) and suggests the nearest option of the target release.

## Why is this bad?
vLLM exits at startup with `unrecognized arguments`. Under a wrapper that reads its argv with
`parse_known_args` (KServe's huggingfaceserver) the option is dropped instead: the launch starts
and vLLM never sees it, a warning. Such a wrapper does not rewrite `_` to `-` either, so
`--gpu_memory_utilization` there is dropped as well.

## Example
```bash
vllm serve m --tensor-paralel-size 2
```
`VL103 --tensor-paralel-size is not an option of any vLLM release; did you mean --tensor-parallel-size?`

## Fix safety
No automatic fix: a typo's intended option is a guess. A vLLM option spelled with `_` under a
wrapper that drops it gets an unsafe fix to the `-` spelling: the setting then takes effect.

## Evidence
The union of every release's option strings in `flag_db/`.
"""

from ..wrapper_options import WRAPPERS
from ._status import args_in_state, dropping_wrapper, rename_edits, unaccepted
from .base import Fix, LintContext, Rule, option_state

RULE = Rule(code="VL103", name="unknown-option", summary="option no vLLM release accepts",
            severity="error",
            triggers=frozenset((option_state("unknown"),)))


@RULE.check
def check(ctx: LintContext):
    for arg, st in args_in_state(ctx, "unknown"):
        if st.unrewritten:
            # a program that hands vLLM's parser its argv without vLLM's rewriting
            w = dropping_wrapper(ctx)
            who = w.short if w else "the program of this launch"
            if st.unrewritten == "_":
                edits = rename_edits(arg, st.name, dashes=True)
                fix = Fix(edits, "unsafe", f"Spell it `{st.name}`") if edits else None
                msg = f"`{arg.written}` is vLLM's `{st.name}` spelled with `_`: {who} does not rewrite `_` to `-`"
            elif st.unrewritten == "-O":
                fix = None
                msg = f"`{arg.written}` is vLLM's shorthand for `{st.name}`: {who} does not rewrite it"
            else:
                fix = None
                msg = f"`{arg.written}` is a dotted key of vLLM's `{st.name}`: {who} does not read dotted keys"
            if w is not None:
                msg += " and drops it: vLLM never sees it"
            yield ctx.diag(RULE, msg, arg.report_span, fix=fix, option=st.name, severity="warning" if w else None)
            continue
        w = WRAPPERS.get(ctx.launch.entry) if ctx.launch is not None else None
        if w is not None and w.open_options:
            ctx.skip(RULE, f"`{arg.written}` may be an option of {w.short} (its own options are not all known)")
            continue
        what = "a keyword argument of any vLLM release's EngineArgs or LLM" if arg.style == "kwargs" \
            else "an option of any vLLM release"
        msg = f"`{arg.written}` is not {what}"
        if st.historic_matches:
            shown = ", ".join(f"`{m}`" for m in st.historic_matches[:4]) + (" ..." if len(st.historic_matches) > 4 else "")
            msg += f"; as an abbreviation it could have meant {shown}, none of which {ctx.target} accepts"
        elif st.suggestion:
            short = ctx.surface.lookup(st.suggestion) if not st.suggestion.startswith("--") else None
            named = f" (`{short.name}`)" if short is not None and short.name != st.suggestion else ""
            msg += f"; did you mean `{st.suggestion}`{named}?"
        dropped, severity = unaccepted(ctx, "")
        if severity:
            msg += (" " if msg.endswith("?") else "; ") + dropped
        yield ctx.diag(RULE, msg, arg.report_span, option=st.name, severity=severity)
