"""## What it does
Finds options that work only because argparse accepts unique prefixes (`--max-model` for
`--max-model-len`), says what they expand to at the target release, and whether the newest
release makes the prefix ambiguous. An ambiguous prefix at the target is an error.

## Why is this bad?
Every release adds options. A prefix that is unique today becomes ambiguous when a new option
shares it, and vLLM then exits with `ambiguous option` at startup, or worse, a prefix starts
meaning another option.

## Example
```bash
vllm serve m --max-model 8192
```
`VL107 --max-model is an abbreviation of --max-model-len`; the fix writes `--max-model-len`.

A removed option that happens to be a prefix of a current one is the dangerous case: the target
release does not reject it, it silently reads it as the other option. That is reported as an
error, with no fix (the author meant the removed option, not its namesake).

## Fix safety
Safe: the expansion is exactly what the target release's parser does. No fix when the written
option was a real option of an earlier release.

## Evidence
argparse's `allow_abbrev` is left on by vLLM's parser in every release; matches are computed
against the scraped option strings of the target (and newest) release.
"""

from ..wrapper_options import WRAPPERS
from .base import Fix, LintContext, Rule
from ._status import rename_edits

RULE = Rule(code="VL107", name="abbreviated-option", summary="option abbreviated to a prefix",
            severity="warning", fix="safe")


@RULE.check
def check(ctx: LintContext):
    w = WRAPPERS.get(ctx.launch.entry) if ctx.launch is not None else None
    for arg in ctx.args:
        if arg.positional or arg.style != "argv" and arg.key_style != "cli":
            continue
        if w is not None and w.open_options and arg.how in ("ambiguous", "abbrev"):
            # the copy of a script may define the word itself, which argparse then takes whole
            ctx.skip(RULE, f"`{arg.written}` may be an option of {w.short} (its own options are not all known)")
            continue
        if arg.how == "ambiguous":
            shown = ", ".join(f"`{c}`" for c in arg.ambiguous[:6])
            yield ctx.diag(RULE, f"`{arg.written}` is an ambiguous abbreviation at vLLM {ctx.target}: "
                                 f"it could be {shown}", arg.report_span, option=arg.canonical, severity="error")
            continue
        if arg.how != "abbrev" or arg.option is None:
            continue
        full = arg.resolved_string
        former = ctx.db.option_history(arg.canonical.partition(".")[0])
        last = ctx.db.last_accepting(former, ctx.target) if former is not None else None
        if last is not None:  # (an option only later releases have is no former option: `-dc` at 0.20)
            yield ctx.diag(RULE, f"`{arg.written}` was an option until vLLM {last}; {ctx.target} silently reads it "
                                 f"as an abbreviation of a different option, `{full}`", arg.report_span,
                           option=arg.canonical, severity="error")
            continue
        msg = f"`{arg.written}` is an abbreviation of `{full}`"
        newest = ctx.db.surface(ctx.db.newest)
        prefix = arg.canonical.partition(".")[0]
        later = {newest.by_string[c].dest for c in newest.prefix_matches(prefix)}
        if newest.lookup(prefix) is None and len(later) > 1:
            msg += f"; it is ambiguous in vLLM {ctx.db.newest}"
        edits = rename_edits(arg, full)
        fix = Fix(edits, "safe", f"Expand to `{full}`") if edits else None
        yield ctx.diag(RULE, msg, arg.report_span, fix=fix, option=full)
