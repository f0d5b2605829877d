r"""## What it does
Finds options cut off from their command by a broken line continuation: a line that starts with
`--` right after a vLLM command whose previous line lacks its trailing backslash, or ends in
`\ ` (a backslash followed by a space), or a backslash followed by CRLF.

## Why is this bad?
The shell runs the vLLM command without those options (and then tries to run `--option` as a
command of its own, which fails after vLLM has started). The deployment silently runs with
defaults: no tensor parallelism, a different context length.

## Example
```bash
vllm serve m \
  --tensor-parallel-size 8
  --max-model-len 32768
```
`VL109 --max-model-len and what follows are not part of the vllm command (line 2 has no trailing backslash)`

## Severity
Warning: vLLM accepts the shortened command and starts; the cut-off options are silently ignored.

## Fix safety
No automatic fix: the intended command may need the backslash, or the lines may be meant as
something else.

## Evidence
POSIX shell grammar; a line continuation is a backslash immediately followed by a newline.
"""

from ..foreign_launchers import FOREIGN_LAUNCHERS
from ..launch import Span
from . import _facts
from .base import LintContext, Rule

RULE = Rule(code="VL109", name="dropped-options", summary="options cut off by a broken line continuation",
            severity="warning",
            triggers=frozenset((_facts.DROPPED,)))


@RULE.check
def check(ctx: LintContext):
    launch = ctx.launch
    if launch is None or not launch.dropped:
        return
    spans = [t.span for t in launch.dropped if t.span]
    span = Span(min(s.start for s in spans), max(s.end for s in spans)) if spans else launch.span
    opts = [t.text for t in launch.dropped if t.text.startswith("-")]
    shown = ", ".join(f"`{o}`" for o in opts)  # every one: each is a setting the launch silently lacks
    one = len(opts) == 1
    foreign = FOREIGN_LAUNCHERS.get(launch.entry)  # (another tool's launcher: the options are its)
    tool = foreign.tool if foreign is not None else "vLLM"
    yield ctx.diag(RULE, f"{shown} {'is' if one else 'are'} cut off from the {tool} command by a broken "
                         f"line continuation and never {'reaches' if one else 'reach'} {tool}", span,
                   option=opts[0] if opts else None)
