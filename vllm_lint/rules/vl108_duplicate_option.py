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
"""

from .base import LintContext, Rule

RULE = Rule(code="VL108", name="duplicate-option", summary="option given more than once",
            severity="warning")


@RULE.check
def check(ctx: LintContext):
    seen: dict[str, object] = {}
    for arg in ctx.args:
        opt = arg.option
        if opt is None or arg.positional or arg.json_path is not None:
            continue
        if opt.kind in ("append",) or opt.nargs == "append":
            continue
        key = opt.dest
        if key in seen:
            later = f" (`{arg.value}`)" if arg.value not in (None, "") and not arg.value_opaque else ""
            yield ctx.diag(RULE, f"`{opt.name}` is given more than once; the later value{later} wins",
                           arg.report_span, option=opt.name)
        seen[key] = arg
