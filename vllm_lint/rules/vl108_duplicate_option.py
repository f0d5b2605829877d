"""## What it does
Finds an option given twice in one launch (also through different spellings: `-tp 2` then
`--tensor-parallel-size 4`, or `--enable-x` then `--no-enable-x`).

## Why is this bad?
argparse keeps the last value silently; the earlier one is dead text that misleads the reader,
and edits to it have no effect.

## Example
```bash
vllm serve m --max-model-len 8192 ... --max-model-len 4096
```
`VL108 --max-model-len is given twice; the later value (4096) wins`

## Fix safety
No automatic fix: which one the author meant is a guess.

## Evidence
argparse semantics (store actions overwrite); options whose action appends are not reported.
From 0.9.0 vLLM's `parse_args` gathers an option's dotted keys (`-cc.mode 3`, and at 0.9.2-0.11
the `-O3` it rewrites to `-O.level=3`) into one object and appends it after all the other
arguments, so it replaces a whole value of the option given anywhere in the line.
"""

from .base import LintContext, Rule
from .vl501_plaintext_secret import SECRET_DESTS

RULE = Rule(code="VL108", name="duplicate-option", summary="option given more than once",
            severity="warning")


@RULE.check
def check(ctx: LintContext):
    seen: dict[str, object] = {}
    dotted: dict[str, object] = {}
    if ctx.surface.dotted_json:
        for arg in ctx.args:
            if arg.option is not None and arg.json_path is not None and arg.style == "argv":
                dotted.setdefault(arg.option.dest, arg)
    for arg in ctx.args:
        opt = arg.option
        if opt is not None and not arg.positional and arg.json_path is None and opt.dest in dotted:
            # parse_args appends an option's dotted keys as one more value after every other
            # argument, wherever they are written: they replace this whole value
            d = dotted[opt.dest]
            shown = f"`{d.written}`"
            if d.written == "-O" and d.tokens:
                shown = f"`{d.tokens[0].text}`, read as `{d.canonical}`"  # -O3 at 0.9.2-0.11
            yield ctx.diag(RULE, f"the dotted keys of `{opt.name}` ({shown}) replace this value: vLLM "
                                 f"{ctx.target} appends them as one more value after all the other arguments",
                           arg.report_span, option=opt.name)
            continue
        if opt is None or arg.positional or arg.json_path is not None:
            continue
        if opt.kind in ("append",) or opt.nargs == "append":
            continue
        key = opt.dest
        if key in seen:
            later = (f" (`{arg.value}`)" if arg.value not in (None, "") and not arg.value_opaque
                     and key not in SECRET_DESTS else "")
            yield ctx.diag(RULE, f"`{opt.name}` is given more than once; the later value{later} wins",
                           arg.report_span, option=opt.name)
        seen[key] = arg
