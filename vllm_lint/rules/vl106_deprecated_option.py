"""## What it does
Finds options that the target release still accepts but has deprecated, and names the
replacement when vLLM names one.

## Why is this bad?
Deprecated options are removed a few releases later (often without further notice in the release
notes); moving now keeps the next upgrade quiet.

## Example
```bash
vllm serve m --guided-decoding-backend xgrammar     # at 0.11.0
```
`VL106 --guided-decoding-backend is deprecated at vLLM 0.11.0; use --structured-outputs-config.backend`

## Fix safety
Safe rename where the successor takes the same value (vLLM's own deprecation names it, or the
curated overlay marks it safe); unsafe otherwise.

## Evidence
Deprecation is scraped per release: argparse `deprecated=True` (0.9-0.16), `[DEPRECATED]` help
text, deprecation message constants and field docstrings (0.17+).
"""

from ..argv import spell_like
from ._status import rename_edits, target_accepts
from .base import Fix, LintContext, Rule

RULE = Rule(code="VL106", name="deprecated-option", summary="option deprecated at the target release",
            severity="warning", fix="safe")


@RULE.check
def check(ctx: LintContext):
    for arg in ctx.args:
        opt = arg.option
        if opt is None or arg.positional or not opt.deprecated:
            continue
        written_base = arg.resolved_string or opt.name
        ov = ctx.db.option_overlay(written_base) or ctx.db.option_overlay(opt.name) or {}
        # the curated overlay wins, also when it says there is no successor
        succ = ov["successor"] if "successor" in ov else opt.deprecated.get("successor")
        safe = bool(ov.get("safe")) if ov else True
        msg = f"`{arg.written}` is deprecated at vLLM {ctx.target}"
        fix = None
        if succ and target_accepts(ctx, succ):
            msg += f"; use `{spell_like(succ, arg) if arg.style == 'config' else succ}`"
            if ov.get("note"):
                msg += f" ({ov['note']})"
            edits = rename_edits(arg, succ)
            if edits:
                fix = Fix(edits, "safe" if safe else "unsafe", f"Replace with `{succ}`")
        elif ov.get("note"):
            msg += f": {ov['note']}"
        yield ctx.diag(RULE, msg, arg.report_span, fix=fix, option=opt.name)
