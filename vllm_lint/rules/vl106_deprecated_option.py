"""## What it does
Finds options that the target release still accepts but has deprecated, and names the
replacement when vLLM names one. `--model` given to `vllm serve` is deprecated from 0.11.1 (vLLM
moves it to the positional slot and warns that the option will be removed). Also finds a deprecated *value* of an option that is not
deprecated itself (0.34.0's `--all2all-backend mori_high_throughput`, in favour of `mori`).

## Why is this bad?
Deprecated options and values are removed a few releases later (often without further notice in
the release notes); moving now keeps the next upgrade quiet.

## Example
```bash
vllm serve m --guided-decoding-backend xgrammar     # at 0.11.0
vllm serve m --all2all-backend mori_low_latency     # at 0.34.0
```
`VL106 --guided-decoding-backend is deprecated at vLLM 0.11.0; use --structured-outputs-config.backend`
`VL106 value mori_low_latency of --all2all-backend is deprecated at vLLM 0.34.0; use mori`

## Fix safety
Safe removal of an option the curated overlay marks as having no effect from a release on
(`noop_since`, with `noop_at_removal`: the same removal VL101 offers once the option is gone).
Safe rename where the successor takes the same value (vLLM's own deprecation names it, or the
curated overlay marks it safe); unsafe otherwise. A deprecated value is replaced by the successor
value vLLM names (safe), where the value is written verbatim. `vllm serve --model X`: the word
`--model` is dropped so that `X` is the positional model (safe where the result reads the same:
`--model` first, or no `--served-model-name` that 0.17+ refuses after a leading option).

## Evidence
Deprecation is scraped per release: argparse `deprecated=True` (0.9-0.16), `[DEPRECATED]` help
text, deprecation message constants and field docstrings (0.17+). `vllm serve --model`: the warning in
`FlexibleArgumentParser.parse_args` (vllm/utils/argparse_utils.py, read in the sdists of 0.11.1,
0.11.2, 0.12.0, 0.33.0 and 0.34.0; 0.11.0 still refuses the option). Deprecated values come from the
list of values in the field's docstring (an item that says the value is deprecated, and the value
it says to use): `deprecated_values` in the release file.
"""

from ..argv import spell_like
from ..launch import Edit, Span
from ..record import lazy_re
from ._status import delete_edits, model_positional_fix, rename_edits, target_accepts, value_edits
from .base import Fix, LintContext, Rule

RULE = Rule(code="VL106", name="deprecated-option", summary="option deprecated at the target release",
            severity="warning", fix="safe")


@RULE.check
def check(ctx: LintContext):
    for arg in ctx.args:
        if arg.structure == "model-option":
            found = _serve_model_option(ctx, arg)
            if found is not None:
                yield found
            continue
        opt = arg.option
        if opt is None or arg.positional:
            continue
        if arg.written.startswith("-O.") and ctx.surface.o_dotted_is_cc:
            yield _o_dotted(ctx, arg, opt)
            continue
        if opt.deprecated:
            yield _deprecated_option(ctx, arg, opt)
        elif opt.deprecated_values:
            found = _deprecated_value(ctx, arg, opt)
            if found is not None:
                yield found


def _deprecated_option(ctx: LintContext, arg, opt):
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
    else:
        if _noop_at_target(ctx, ov):
            msg += " and has no effect there"
            edits = delete_edits(ctx, arg)
            if edits:
                fix = Fix(edits, "safe", f"Remove `{arg.written}` (it has no effect at {ctx.target})")
        if ov.get("note"):
            msg += f": {ov['note']}"
    return ctx.diag(RULE, msg, arg.report_span, fix=fix, option=opt.name)


def _o_dotted(ctx: LintContext, arg, opt):
    """0.12.x reads ``-O.<key>`` as ``-cc.<key>`` and warns that the spelling will be removed
    (0.13.0 reads the word as an optimization level and refuses it)."""
    key = arg.written[3:]
    fix = None
    ns = arg.name_span
    if ns is not None and ctx.data[ns.start:ns.start + 3] == b"-O.":
        fix = Fix([Edit(Span(ns.start, ns.start + 2), "-cc")], "safe", f"Replace with `-cc.{key}`")
    return ctx.diag(RULE, f"`-O.{key}` is deprecated at vLLM {ctx.target} (vLLM reads it as `-cc.{key}` and warns that "
                          f"the spelling will be removed; 0.13.0 refuses it); use `-cc.{key}`", arg.report_span,
                    fix=fix, option=opt.name)


_SERVED_NAME = lazy_re(r"^--served[-_]model[-_]name(=.+|$)")


def _serve_model_option(ctx: LintContext, arg):
    """``vllm serve --model X`` where vLLM moves X to the positional slot and warns that the option
    will be removed. With a positional model as well, VL110 reports the left-over word instead."""
    s = ctx.surface
    if ctx.launch is None or not s.serve_model_option_deprecated or not s.runs_serve(ctx.launch.entry):
        return None
    if any(a.positional and a.how == "positional" and a.structure != "model-option" for a in ctx.args):
        return None
    if sum(1 for a in ctx.args if a.structure == "model-option") != 1:
        return None
    toks = ctx.launch.tokens
    first = bool(toks) and arg.tokens and toks[0] is arg.tokens[0]
    refused_later = s.served_name_needs_leading_model and any(_SERVED_NAME.match(t.text) for t in toks)
    fix = model_positional_fix(ctx, arg) if first or not refused_later else None
    return ctx.diag(RULE, f"`--model` with `vllm serve` is deprecated at vLLM {ctx.target} (vLLM warns that it will "
                          "be removed); give the model as the positional argument", arg.report_span, fix=fix,
                    option="--model")


def _noop_at_target(ctx: LintContext, ov: dict) -> bool:
    """The overlay says the deprecated option already does nothing at the target release: one
    policy for removable no-ops, before their removal (here) and after it (VL101)."""
    since = ov.get("noop_since")
    if not ov.get("noop_at_removal") or not since:
        return False
    try:
        return ctx.db.position(ctx.target) >= ctx.db.position(since)
    except ValueError:  # a database without that release (a user's, or a test's)
        return False


def _deprecated_value(ctx: LintContext, arg, opt):
    """A value the target release lists among the option's choices and marks deprecated."""
    if arg.value_opaque or arg.json_path is not None or not isinstance(arg.value, str):
        return None
    if arg.style == "argv" and not opt.takes_value(arg.resolved_string or arg.written):
        return None
    typed = opt.as_typed(arg.value)
    entry = opt.deprecated_values.get(typed)
    if entry is None:
        return None
    succ = entry.get("successor")
    msg = f"value `{arg.value}` of `{arg.written}` is deprecated at vLLM {ctx.target}"
    fix = None
    if succ and opt.choices and succ in opt.choices:
        msg += f"; use `{succ}`"
        edits = value_edits(ctx, arg, arg.value, succ)
        if edits:
            fix = Fix(edits, "safe", f"Replace `{arg.value}` with `{succ}`")
    span = arg.value_tokens[0].span if arg.value_tokens and arg.value_tokens[0].span else arg.report_span
    if arg.keyed is not None and arg.keyed.value_span is not None:
        span = arg.keyed.value_span
    return ctx.diag(RULE, msg, span, fix=fix, option=opt.name)
