"""## What it does
Checks the shape of a `vllm serve` command line the way the target release's parser reads it:
an option that takes a value given none (the line ends, or another option follows); a word no
option takes (`--enforce-eager true`, `-ep 1`, a second model); `--model` given to `vllm serve`
where the release refuses it, or needs the positional model as well, or together with a
positional model that it then leaves over; `--served-model-name` when the first word is not the
model (refused from 0.17); words after `--` (positionals only: left over after the model).

## Why is this bad?
argparse exits at startup: `expected one argument`, `unrecognized arguments: true`, `the
following arguments are required: model_tag`; vLLM 0.8.3 to 0.11.0 raise "provide the model as a
positional argument" for `vllm serve --model X` (0.11.1 moves it to the positional slot instead, VL106). Under a wrapper that reads its argv with
`parse_known_args` (KServe's huggingfaceserver) a left-over word is dropped instead, a warning;
a missing value still exits there.

## Example
```bash
vllm serve m --enforce-eager true --max-model-len
```
`VL110 `true` is left over: `--enforce-eager` is a switch and takes no value`

## Fix safety
`--model X` to `vllm serve` where the release wants the positional model: the safe fix drops
the word `--model`, so that `X` becomes the positional model (vLLM's documented form). Other
findings have no automatic fix.

## Evidence
Measured against the real parsers of each era with `tools/crosscheck/difftest.py`. Words that
are shell variables or templates are unknown and never reported. A script written by a heredoc
is read as it is written: with an unquoted delimiter (`cat > /start.sh <<EOF`) the writing shell
turns `"\\$@"` into `"$@"`, the forwarded arguments; a quoted delimiter (`<<'EOF'`) keeps the
body as it is.
"""

from __future__ import annotations

from ..record import lazy_re
from ._status import model_positional_fix, unaccepted
from .base import LintContext, Rule

RULE = Rule(code="VL110", name="malformed-arguments", summary="command line the parser cannot read",
            severity="error", fix="safe")


_SERVED_NAME = lazy_re(r"^--served[-_]model[-_]name(=.+|$)")
_CONFIG = lazy_re(r"^--config(=.+|$)")


def _served_name_first(ctx: LintContext, toks: list):
    """`vllm serve --port 1 m --served-model-name x`: parse_args looks at the words as written
    (Surface.served_name_needs_leading_model), so an option first is refused even with a model
    later; a word the shell expands may hold the model or `--config`."""
    if not toks or any(t.splat or t.opaque for t in toks) or not toks[0].text.startswith("-"):
        return
    if any(_CONFIG.match(t.text) for t in toks):
        return
    named = next((t for t in toks if _SERVED_NAME.match(t.text)), None)
    if named is not None:
        yield ctx.diag(RULE, f"`vllm serve` at vLLM {ctx.target} refuses `--served-model-name` unless the model "
                             "is the first argument", named.span or ctx.launch.span, option="--served-model-name")


def _prints_and_exits(word: str) -> bool:
    """``-h``, ``--help`` (and its prefixes), ``--version``: argparse prints and exits before it
    checks the required arguments."""
    w = word.split("=")[0]
    return w == "-h" or len(w) >= 4 and ("--help".startswith(w) or "--version".startswith(w))


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None:
        return
    if not ctx.launch.tokens:
        if ctx.launch.entry == "vllm serve" and ctx.launch.style == "argv" and not ctx.launch.opaque \
                and not ctx.launch.keyed and ctx.surface.positional_model_required:
            # `vllm serve` alone: argparse's "the following arguments are required: model_tag"
            yield ctx.diag(RULE, f"`vllm serve` at vLLM {ctx.target} needs the model as its positional argument",
                           ctx.launch.span)
        return
    s = ctx.surface
    models: list = []  # (the positional models, and the `--model` words: found in the one pass)
    model_opts: list = []
    for arg in ctx.args:
        if arg.structure == "model-option":
            model_opts.append(arg)
        elif arg.positional and arg.how == "positional":
            models.append(arg)
        if arg.structure == "missing-value":
            yield ctx.diag(RULE, f"`{arg.written}` expects a value, but "
                                 + ("the line ends" if arg.tokens[-1] is ctx.launch.tokens[-1] else "an option follows"),
                           arg.report_span, option=arg.option.name if arg.option else arg.canonical)
        elif arg.structure == "stray":
            if arg.value_opaque or any(t.opaque for t in arg.tokens):
                continue
            if arg.after_switch:
                msg = f"`{arg.value}` is left over: `{arg.after_switch}` is a switch and takes no value"
            else:
                msg = f"`{arg.value}` is left over: no option or positional argument takes it"
            dropped, severity = unaccepted(ctx, "")
            if severity:
                msg += f"; {dropped}"
            yield ctx.diag(RULE, msg, arg.report_span, option=arg.after_switch, severity=severity)
    toks = ctx.launch.tokens
    if not model_opts and not models and s.positional_model_required and ctx.launch.entry == "vllm serve" \
            and not any(t.splat or t.opaque or _prints_and_exits(t.text) for t in toks):
        yield ctx.diag(RULE, f"`vllm serve` at vLLM {ctx.target} needs the model as its positional argument",
                       toks[0].span if toks else ctx.launch.span)
    if toks and toks[0].text[:1] == "-" and s.served_name_needs_leading_model and not model_opts \
            and s.runs_serve(ctx.launch.entry):  # (an option first: else nothing to look at, as for most)
        yield from _served_name_first(ctx, toks)
    if not model_opts or not s.runs_serve(ctx.launch.entry):
        return  # `--model` is the normal spelling for the api_server module
    mode = s.serve_model_option
    first = model_opts[0]
    if mode == "refused":
        # `--model=X`: parse_args looks for the word `--model`; the option takes it as usual, but
        # a later `--model X` is refused all the same
        words = [m for m in model_opts if not m.inline_value]
        if not words:
            return
        first = words[0]
    if mode == "refused":
        fix = model_positional_fix(ctx, first) if not models and len(model_opts) == 1 else None
        yield ctx.diag(RULE, f"`vllm serve` at vLLM {ctx.target} refuses `--model`: give the model as the "
                             "positional argument", first.report_span, fix=fix, option="--model")
    elif mode == "option" and not models and s.positional_model_required:
        fix = model_positional_fix(ctx, first) if len(model_opts) == 1 else None
        yield ctx.diag(RULE, f"`vllm serve` at vLLM {ctx.target} needs the model as its positional argument; "
                             "`--model` alone leaves it missing", first.report_span, fix=fix, option="--model")
    elif mode == "moved" and models and not models[0].value_opaque and models[0].tokens and \
            not first.value_opaque and not first.model_moved_away:  # `--model=<path>`: a placeholder, the line is not meant as written
        yield ctx.diag(RULE, f"`{models[0].value}` is left over: at vLLM {ctx.target} `--model` fills the "
                             "positional model slot", models[0].report_span, option="--model")
