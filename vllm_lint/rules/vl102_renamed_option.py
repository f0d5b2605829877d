"""## What it does
Finds options that were removed under one name and that the target release accepts under
another (a rename, or a move into a JSON config option such as `--structured-outputs-config`).

## Why is this bad?
The old spelling is rejected at startup by the target release, although the setting itself
still exists. Under a wrapper that reads its argv with `parse_known_args` (KServe's
huggingfaceserver) the old name is dropped instead: the launch starts without the setting, a
warning.

## Example
```bash
vllm serve m --cuda-graph-sizes 1 2 4 8
```
At 0.27.1: `VL102 --cuda-graph-sizes was renamed to --cudagraph-capture-sizes`; the fix gives
`vllm serve m --cudagraph-capture-sizes 1 2 4 8`.

## Fix safety
Safe where the successor takes the same value with the same meaning (curated in
`flag_db/overlays/renames.json`, or named by vLLM's own deprecation of the old option). The fix
keeps the value, the `=` style and the dash or underscore spelling. Renames that change meaning
(opposite polarity, a value that moves into a different unit) are unsafe fixes and apply only
with `--unsafe-fixes`. Under a wrapper that drops the old name the fix is unsafe too: the
setting, not in effect before, takes effect.

## Evidence
`flag_db/overlays/renames.json` entries cite the release notes, pull requests or vLLM's
deprecation messages; the database records the first and last releases of each spelling.
"""

from ..argv import spell_like
from ._status import args_in_state, rename_edits, unaccepted
from .base import Fix, LintContext, Rule, option_state

RULE = Rule(code="VL102", name="renamed-option", summary="option renamed; the target accepts only the new name",
            severity="error", fix="safe",
            triggers=frozenset((option_state("renamed"),)))


@RULE.check
def check(ctx: LintContext):
    for arg, st in args_in_state(ctx, "renamed"):
        new = st.successor
        shown = spell_like(new, arg) if arg.style == "config" else new
        refused, severity = unaccepted(ctx, f"{ctx.target} rejects it", "the old name")
        if severity:
            refused = f"at {ctx.target} {refused}"
        msg = f"{st.shown} was renamed to `{shown}` (the old name was last accepted by {st.last}; {refused})"
        if st.successor_note:
            msg += f": {st.successor_note}"
        fix = None
        no_fix = (ctx.db.option_overlay(st.name) or {}).get("no_fix_values") or []
        edits = None if isinstance(arg.value, str) and arg.value in no_fix else \
            rename_edits(arg, new, dashes=st.unrewritten == "_")
        if edits:
            # where the old name is dropped rather than refused, the rename puts the setting in effect
            safe = st.successor_safe and not severity
            fix = Fix(edits, "safe" if safe else "unsafe", f"Rename to `{shown}`")
        yield ctx.diag(RULE, msg, arg.report_span, fix=fix, option=st.name, severity=severity)
