"""## What it does
Finds an explicit `--async-scheduling` (or `async_scheduling=True`) combined with a feature the
target release rejects at startup:

| release | rejected with `--async-scheduling` |
| --- | --- |
| 0.10.0 - 0.10.2 | pipeline parallelism (`-pp` > 1); any speculative decoding config |
| 0.11.0 | pipeline parallelism |
| 0.11.1 - 0.14.x | pipeline parallelism; speculative methods other than EAGLE / EAGLE3 / MTP |
| 0.15.0 - 0.16.x | speculative methods other than EAGLE / EAGLE3 / MTP |
| 0.17.0 and later | speculative methods other than EAGLE / EAGLE3 / MTP / draft_model |

## Why is this bad?
vLLM raises a `ValueError` during configuration and does not start. (A third-party guide calls this
a "stall"; the source shows a startup rejection, or on 0.14.x, async scheduling silently disabled
when it was not requested explicitly, which is not reported.)

## Example
```bash
vllm serve m --async-scheduling -pp 2                                   # 0.10.0 - 0.14.x
vllm serve m --async-scheduling --speculative-config '{"method": "ngram", "num_speculative_tokens": 4}'
```

## Fix safety
No fix: dropping either feature changes the deployment.

## Evidence
`docs/antipatterns.md` (j): `vllm/engine/arg_utils.py` 0.10.x (vllm-project/vllm#19970),
`vllm/config/vllm.py` 0.11.1+ (#24799 allowed EAGLE/MTP), #32359 (PP supported from 0.15.0),
draft_model allowed from 0.17.0. The speculative method is read from `--speculative-config`
(whole JSON or dotted keys); a config without a literal `method` stays silent on 0.11.1+, because
vLLM infers the method from the draft model. Structured outputs were never a startup error, so
they are not reported.
"""

from ..knowledge import version_in
from ..knowledge.layout import layout
from .base import LintContext, Rule

RULE = Rule(code="VL404", name="async-scheduling-conflict",
            summary="--async-scheduling combined with a feature the target release rejects at startup",
            severity="error",
            triggers=frozenset(("async_scheduling",)))

_EAGLE = {"eagle", "eagle3", "mtp"}


def _method_ok(method: str, target: str) -> bool:
    m = method.strip().lower()
    if m in _EAGLE or m.endswith("_mtp"):
        return True
    if m == "draft_model" and version_in(target, "0.17.0"):
        return True
    return False


@RULE.check
def check(ctx: LintContext):
    if ctx.launch is None:
        return
    lay = layout(ctx)
    a = lay.async_scheduling
    if not a.present or not a.known or a.value is not True:
        return
    t = ctx.target
    if not version_in(t, "0.10.0"):
        return  # the option does not exist (VL104 reports it)
    span = a.span
    if version_in(t, "0.10.0", "0.15.0") and (lay.pp.count or 0) > 1:
        yield ctx.diag(RULE, f"--async-scheduling with pipeline parallelism (pp {lay.pp.value}) is rejected at startup "
                             f"by vLLM {t} (supported from 0.15.0)", span, option="--async-scheduling")
    spec = lay.speculative
    if not spec.present:
        return
    if not spec.known or not isinstance(spec.value, dict):
        ctx.skip(RULE, "the speculative config is not known statically")
        return
    if version_in(t, "0.10.0", "0.11.0"):
        yield ctx.diag(RULE, f"--async-scheduling with speculative decoding is rejected at startup by vLLM {t} "
                             f"(EAGLE/MTP allowed from 0.11.1)", span, option="--async-scheduling")
        return
    if version_in(t, "0.11.0", "0.11.1"):
        ctx.skip(RULE, "async scheduling with speculative decoding at 0.11.0 is not covered by the evidence")
        return
    method = spec.value.get("method")
    if not isinstance(method, str) or not method:
        ctx.skip(RULE, "the speculative config names no method (vLLM infers it from the draft model)")
        return
    if not _method_ok(method, t):
        allowed = "EAGLE, EAGLE3, MTP" + (" and draft_model" if version_in(t, "0.17.0") else "")
        yield ctx.diag(RULE, f"--async-scheduling with speculative method `{method}` is rejected at startup by vLLM {t} "
                             f"(only {allowed} work with async scheduling)", span, option="--async-scheduling")
