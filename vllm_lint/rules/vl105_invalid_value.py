"""## What it does
Checks option values against the target release: choices (`--dtype`, `--kv-cache-dtype`, ...),
types (integers, floats, human-readable sizes such as `32k`), JSON config options that must
parse as JSON, keys inside JSON config options (`--compilation-config '{"level": 3}'` after the
key was renamed `mode`), and switches given a value they do not take (`--enforce-eager=true`).

## Why is this bad?
argparse rejects the value at startup (`invalid choice`, `invalid int value`), or the config
class rejects an unknown key (vLLM's config dataclasses forbid extra keys).

## Example
```bash
vllm serve m --dtype fp16 --max-num-seqs 256.5
```
`VL105 invalid value 'fp16' for --dtype at vLLM 0.27.1: expected one of auto, bfloat16, float, float16, float32, half`

## Fix safety
No automatic fix.

## Evidence
Choices, types and JSON config keys are scraped per release into `flag_db/releases/*.json`.
Values that are shell variables or templates are unknown and never reported.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from ..record import lazy_re
from .base import LintContext, Rule

RULE = Rule(code="VL105", name="invalid-value", summary="value the target release rejects",
            severity="error")

_HUMAN_INT = lazy_re(r"^\d+(\.\d+)?\s*[kKmMgGtT]?[iI]?[bB]?$")


def _type_error(type_name: Optional[str], value: str, optional: bool) -> Optional[str]:
    if optional and value in ("None", ""):
        return None
    t = (type_name or "").lower()
    try:
        if t == "int":
            int(value)
        elif t == "float":
            float(value)
        elif t == "human_int":
            if not _HUMAN_INT.match(value):
                return "a whole number or a size like 32k"
        elif t == "human_int_or_auto":
            if value != "auto" and not _HUMAN_INT.match(value):
                return "a whole number, a size like 32k, or auto"
        elif t == "json":
            json.loads(value)
    except ValueError:
        return {"int": "a whole number", "float": "a number", "json": "valid JSON"}.get(t, t)
    return None


def _choice_ok(value: Any, choices: list[Any], optional: bool) -> bool:
    if optional and value in ("None", None):
        return True
    as_text = {str(c) for c in choices} | {json.dumps(c) for c in choices if not isinstance(c, str)}
    if isinstance(value, bool):
        value = str(value).lower()
    return str(value) in as_text


def _json_keys_error(ctx: LintContext, opt, keys: list[str]) -> Optional[str]:
    cfg = ctx.surface.json_config_for(opt)
    fields = (cfg or {}).get("fields")
    if not fields:
        return None
    unknown = [k for k in keys if k.rstrip("+") not in fields]
    if not unknown:
        return None
    import difflib

    hints = []
    for k in unknown:
        close = difflib.get_close_matches(k.rstrip("+"), list(fields), n=1, cutoff=0.7)
        hints.append(f"`{k}`" + (f" (did you mean `{close[0]}`?)" if close else ""))
    return f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(hints)} in `{opt.name}` at vLLM {ctx.target}"


@RULE.check
def check(ctx: LintContext):
    for arg in ctx.args:
        opt = arg.option
        if opt is None or arg.positional or arg.value_opaque:
            continue
        problem = None
        value = arg.value
        if arg.json_path is not None:
            problem = _json_keys_error(ctx, opt, [arg.json_path.split(".")[0]])
        elif arg.style == "argv" or arg.key_style == "cli":
            if value is None:
                continue
            if not opt.takes_value(arg.resolved_string or arg.written) and arg.how != "o-rewrite":
                if arg.inline_value:
                    problem = f"`{arg.written}` takes no value (got `{value}`)"
            else:
                values = [t.text for t in arg.value_tokens] if len(arg.value_tokens) > 1 else [value]
                for v in values:
                    if opt.kind == "json" or opt.type == "json":
                        try:
                            parsed = json.loads(v)
                        except ValueError:
                            if opt.kind == "json" and v.isdigit() and arg.bare_level_allowed:
                                continue  # a bare level: -O3 means level 3 where -O is the alias
                            problem = f"value of `{arg.written}` is not valid JSON"
                            break
                        if isinstance(parsed, dict):
                            problem = _json_keys_error(ctx, opt, list(parsed))
                            if problem:
                                break
                        continue
                    if opt.choices and not _choice_ok(v, opt.choices, opt.optional):
                        shown = ", ".join(str(c) for c in opt.choices)
                        problem = f"invalid value `{v}` for `{arg.written}` at vLLM {ctx.target}: expected one of {shown}"
                        break
                    err = _type_error(opt.type, v, opt.optional)
                    if err:
                        problem = f"invalid value `{v}` for `{arg.written}`: expected {err}"
                        break
        else:
            # keyword arguments and config keys carry Python values
            if value is None or isinstance(value, bool):
                continue
            if opt.kind == "json" and isinstance(value, dict):
                problem = _json_keys_error(ctx, opt, [str(k) for k in value])
            elif opt.choices and isinstance(value, (str, int, float)) and not _choice_ok(value, opt.choices, opt.optional):
                shown = ", ".join(str(c) for c in opt.choices)
                problem = f"invalid value `{value}` for `{arg.written}` at vLLM {ctx.target}: expected one of {shown}"
        if problem:
            span = arg.value_tokens[0].span if arg.value_tokens and arg.value_tokens[0].span else arg.report_span
            if arg.keyed is not None and arg.keyed.value_span is not None:
                span = arg.keyed.value_span
            yield ctx.diag(RULE, problem, span, option=opt.name)
