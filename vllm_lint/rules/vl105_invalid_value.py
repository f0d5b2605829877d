"""## What it does
Checks option values against the target release: choices (`--dtype`, `--kv-cache-dtype`, ...),
types (integers, floats, human-readable sizes such as `32k`), JSON config options that must
parse as JSON, keys inside JSON config options (`--compilation-config '{"level": 3}'` after the
key was renamed `mode`) and inside their nested config objects where the nested class forbids
other keys (`--quantization-config.moe.activaiton mxfp8`) and the names their fields look up
(`--quantization-config.moe foo`: the release's shorthand and quantization-name tables), the value `vllm serve`'s check of its
options reads by itself (`--reasoning-effort-map '{"extreme": "max"}'`: 0.33+ takes an object of
strings keyed by its reasoning efforts), the values of those keys where the release validates them (a string
field given `true`, a string `Literal` such as `ec_role` given another word, a bound such as
`--eplb-config.window_size 0` where the field needs more than 0, a list of whole numbers given
`["a"]`, a nested config given a non-object; a value a validator of the class may change first is
left to it), what the config
classes' own validators refuse (`--kv-transfer-config.kv_connector NixlConnector` without a
`kv_role`, `--structured-outputs-config.disable_any_whitespace true` without the `xgrammar` or
`guidance` backend; `--profiler-config.profiler torch` without `torch_profiler_dir`), strings a
validator looks up as an enum member (`-cc.cudagraph_mode foo`, `--attention-config.backend foo`),
a word whose rewrite by the field's validator (lower case, `-` to `_`) is none of its choices
(`--kernel-config.moe_backend bogus`), an object without a key its class requires
(`--watermark-config '{"enforce": true}'` at 0.34: `key` has no default), an object keyed by an
enum's values (`-ac.backend_per_kind '{"foo": "FLASH_ATTN"}'`), an item of a list a check over
each item refuses (`-cc.custom_ops '["a"]'`: not `all`, `none`, `+op` or `-op`),
`key+` on a field that takes no list (`-cc.mode+ 3`), device ids start-up cannot resolve
(`--device-ids cuda`, a device named twice, numbers mixed with UUIDs: 0.24+), dotted keys on an option that is no JSON
config (`--max-model-len.mode=3`: vLLM hands it the keys as JSON text), the items of
`--lora-modules` and `--prompt-adapters` (`name=path` or, for LoRA, a
JSON object with the fields the release knows), and switches given a value they do not take
(`--enforce-eager=true`), and words the parser takes but start-up refuses where it hands the value
unchanged to a config class with string choices (`--data-parallel-backend foo`: `ParallelConfig`
takes `ray` or `mp`), a version (`--show-hidden-metrics-for-version foo`: `ObservabilityConfig`
parses it as a PEP 440 version, 0.12+), a JSON value of another kind than the field's type
(`--custom-histogram-buckets 2`), an item outside the field's list of `Literal`s
(`--collect-detailed-traces model,all` at 0.9.1-0.30) or that takes only a mapping
(`--additional-config foo`: the parser keeps a
word that is not `{...}` as a string, which `VllmConfig` refuses: 0.9.2+).

A value that is one template placeholder a runner fills before the launch (`--port {port}` in a
recipe formatted with Python's `str.format`, `{tp:d}`, `{{ max_len }}`) is not a value as written
and is not checked, like a shell variable; a JSON value (`{"a": 1}`) or an empty `{}` is, and so
is `{name}` given to an option that takes JSON (there it is an object the parser refuses).

## Why is this bad?
argparse rejects the value at startup (`invalid choice`, `invalid int value`), or the config
class rejects it while the command line is parsed or the engine configuration is built (vLLM's
config dataclasses forbid extra keys; pydantic checks the field types). A warning where the
release itself is not consistent: 0.8.5 takes `--guided-decoding-backend`'s choices from one of
two `Literal`s in an order that changes at every start, so `outlines` is refused by some starts.

## Example
```bash
vllm serve m --dtype fp16 --max-num-seqs 256.5
```
`VL105 invalid value 'fp16' for --dtype at vLLM 0.27.1: expected one of auto, bfloat16, float, float16, float32, half`

## Fix safety
Safe, only for a choice the release refuses that an earlier release deprecated in favour of
another value (`deprecated_values` in the release file): the value it names replaces it. No
automatic fix otherwise.

## Evidence
Choices, types and JSON config keys are scraped per release into `flag_db/releases/*.json`. The
`if ...: raise` checks of the config classes' after-validators and `__post_init__`, and the enum
lookups of their before-validators, are scraped too (`json_configs.<dest>.checks`,
`fields.<key>.enum_names`; the string rewrites, required keys, enum-keyed objects and checks over
each item of a list: `transform`, `required`, `key_values`, `"each"` checks), and so are the
config-class fields start-up hands option values to unchanged (`start_fields`:
their string `Literal` choices, `version` where an after validator parses the value as a PEP 440
version, `mapping` where the field takes only a dict or a class a string
is no instance of, or `items` where an after validator refuses an item of a list option: 0.20+
`--numa-bind-cpus ''`, `0-3,a` or `7-4`, an empty word, no numactl CPU list, a descending range)
and how start-up resolves `--device-ids` (`device_id_checks`:
`EngineArgs._resolve_device_ids` hands each string id to the platform, which takes a number or, on
CUDA, a GPU UUID); a few older checks of `__post_init__` and the adapter options' argparse
actions are kept per release range in `vllm_lint/knowledge/config_checks.py` and
`vllm_lint/knowledge/adapters.py`, read from each release's source and checked against the real
parsers (`tools/crosscheck/difftest.py`). vLLM merges an option's dotted keys into one object
(the last value of a key wins), and at 0.9.2-0.11 rewrites `-O<x>` to the dotted key `-O.level`
(`-O.mode` at 0.11.1-0.11.2).
Values that are shell variables or templates are unknown and never reported, and so is a value
outside choices the platform adds to (`choices_platform`: 0.28+ `--mm-processor-device` takes
`auto`, `cpu` and the device type of the platform it runs on, never empty; `--verbose` says so). Keyword arguments of
`LLM(...)`/`EngineArgs(...)` skip argparse: their numeric choices are not checked, and strings
are compared without case (vLLM lower-cases `quantization` and `dtype`).

## Severity
Error: the parser or the config the release builds at start refuses the value.
"""

from __future__ import annotations

import re

from ..knowledge.config_checks import OnlyWith, Requires, holds, object_problem
from ..record import lazy_json as json  # (json.loads without the json package: record.json_loads)
from ..record import Record, lazy_re
from ._status import close_match, value_edits
from .base import Fix, LintContext, Rule

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

    _Found = tuple[str, str, Optional[Fix]]  # (problem, severity, fix): what one word is refused or warned for

RULE = Rule(code="VL105", name="invalid-value", summary="value the target release rejects",
            severity="error", fix="safe")

_SIZE = lazy_re(r"(\d+(?:\.\d+)?)([kKmMgGtT])")


def _human_int_ok(value: str) -> bool:
    """vLLM's ``human_readable_int``: a number with one size letter (`25.6k`, `1K`; lower-case
    letters are powers of ten, upper-case powers of two and take no decimals), else a plain
    ``int()`` (`+5`, `1_000`); `32kb`, `1.5` and `32 k` are refused."""
    v = value.strip()
    m = _SIZE.fullmatch(v)
    if m:
        return not (m.group(2).isupper() and "." in m.group(1))
    try:
        int(v)
    except ValueError:
        return False
    return True


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
            if not _human_int_ok(value):
                return "a whole number or a size like 32k"
        elif t == "human_int_or_auto":
            if value.strip().lower() != "auto" and not _human_int_ok(value):
                return "a whole number, a size like 32k, or auto"
        elif t == "json":
            json.loads(value)
    except ValueError:
        return {"int": "a whole number", "float": "a number", "json": "valid JSON"}.get(t, t)
    return None


def _kvs_error(written: str, value: str, empty_is_none: bool) -> Optional[str]:
    """vLLM's ``nullable_kvs``: comma-separated ``KEY=VALUE`` items with whole-number values
    (``image=2,video=1``); the empty string is None up to 0.8.4 (``empty_is_none``), an item
    without ``=`` from 0.8.5, where only ``optional_type`` around it maps it to None."""
    if value == "":
        return None if empty_is_none else f"an empty value for `{written}` at this release is no `KEY=VALUE` item (`image=2,video=1`)"
    for item in value.split(","):
        parts = item.split("=")
        if len(parts) != 2:
            return f"`{value}` for `{written}` at this release must be `KEY=VALUE` items (`image=2,video=1`)"
        try:
            int(parts[1].strip())
        except ValueError:
            return f"`{item}` for `{written}`: the value must be a whole number"
    return None


def _choice_ok(value: Any, choices: list[Any], optional: bool) -> bool:
    if optional and value in ("None", "", None):
        # the type turns the word into Python None; the database lists "None" exactly where the
        # release's choices then hold it
        return "None" in {str(c) for c in choices}
    as_text = {str(c) for c in choices} | {json.dumps(c) for c in choices if not isinstance(c, str)}
    if isinstance(value, bool):
        value = str(value).lower()
    return str(value) in as_text


def _json_kind(value: Any) -> str:
    """The JSON kind of a parsed value, as the database's ``prevalidated`` lists name them."""
    if value is None:
        return "null"
    for kind, types in (("bool", bool), ("int", int), ("float", float), ("str", str), ("list", list)):
        if isinstance(value, types):
            return kind
    return "object"


def _field_value_error(ftype: Optional[str], choices: Any, value: Any, constraints: Optional[dict] = None,
                       is_object: bool = False) -> Optional[str]:
    """What a config field of type ``ftype`` refuses in ``value`` (a JSON value), judged as pydantic
    does in its lax mode; None when it may accept it. Only plain types, lists and objects of them,
    nested config classes (``is_object``) and literal bounds (``constraints``) are judged."""
    t = (ftype or "").replace(" ", "")
    nullable = t.endswith("|None") or t.startswith("None|") or t.startswith("Optional[")
    t = t.replace("|None", "").replace("None|", "")
    if value is None:
        return None if nullable or not t else "not null"
    if is_object:
        return None if isinstance(value, dict) else "an object"
    err = _plain_value_error(t, choices, value)
    if err is None and constraints:
        err = _bound_error(t, constraints, value)
    return err


_PLAIN = ("int", "float", "str", "bool")
_ITEM_TEXT = {"int": "whole numbers", "float": "numbers", "str": "strings", "bool": "true or false"}


def _bound_error(t: str, constraints: dict, value: Any) -> Optional[str]:
    """pydantic's ``gt``/``ge``/``lt``/``le`` on a number, ``min_length``/``max_length`` on a
    string, list or object; the value already has the field's type."""
    n: Any = None
    if t in ("int", "float") and not isinstance(value, bool):
        try:
            n = (int(value.strip()) if t == "int" else float(value)) if isinstance(value, str) else value
        except ValueError:
            return None
    if isinstance(n, (int, float)):
        for key, text, ok in (("gt", "greater than", lambda a, b: a > b), ("ge", "at least", lambda a, b: a >= b),
                              ("lt", "less than", lambda a, b: a < b), ("le", "at most", lambda a, b: a <= b)):
            bound = constraints.get(key)
            if isinstance(bound, (int, float)) and not ok(n, bound):
                return f"{text} {bound}"
    if isinstance(value, (str, list, dict)) and (t == "str" or t.startswith(("list", "dict", "set"))):
        low, high = constraints.get("min_length"), constraints.get("max_length")
        if isinstance(low, int) and len(value) < low:
            return f"at least {low} long"
        if isinstance(high, int) and len(value) > high:
            return f"at most {high} long"
    return None


def _plain_value_error(t: str, choices: Any, value: Any) -> Optional[str]:
    # ``choices`` only where the database marks them enforced (a string Literal no validator
    # rewrites first); enum values and plugin-extensible names are not what the class accepts
    if choices:
        return None if value in choices else "one of " + ", ".join(dict.fromkeys(str(c) for c in choices))
    if t == "int":
        if isinstance(value, bool) or isinstance(value, int):
            return None
        if isinstance(value, float):
            return None if value.is_integer() else "a whole number"
        if isinstance(value, str):
            return None if _INT_TEXT.match(value.strip()) else "a whole number"
        return "a whole number"
    if t == "float":
        if isinstance(value, (int, float)):
            return None
        if isinstance(value, str):
            try:
                float(value)
                return None
            except ValueError:
                return "a number"
        return "a number"
    if t == "str":
        # pydantic's lax mode takes no number or boolean for a string field
        return None if isinstance(value, str) else "a string"
    if t == "bool":
        if isinstance(value, bool) or value in (0, 1):
            return None
        if isinstance(value, str) and value.lower() in _BOOL_TEXT:
            return None
        return "true or false"
    if t.startswith(("list[", "set[", "tuple[")) and isinstance(value, (int, float, bool, dict, str)):
        # pydantic takes no string for a list; a validator of the class that splits `a,b` sees it
        # first (the database's ``prevalidated`` lists `str` then)
        return "a list"
    if t.startswith("dict") and not isinstance(value, dict):
        return "an object"
    item = t[5:-1] if t.startswith(("list[", "set[")) and t.endswith("]") else None
    if item in _PLAIN and isinstance(value, list):
        if any(_plain_value_error(item, None, x) for x in value):
            return f"a list of {_ITEM_TEXT[item]}"
    if t.startswith("dict[str,") and t.endswith("]") and isinstance(value, dict):
        item = t[len("dict[str,"):-1]
        if item in _PLAIN and any(_plain_value_error(item, None, x) for x in value.values()):
            return f"an object whose values are {_ITEM_TEXT[item]}"
        inner = item[5:-1] if item.startswith("list[") and item.endswith("]") else None
        if inner in _PLAIN and any(not isinstance(x, list) or any(_plain_value_error(inner, None, y) for y in x)
                                   for x in value.values()):
            # `{"ttft": 1}` for `dict[str, list[float]]`: each value is a list of them
            return f"an object whose values are lists of {_ITEM_TEXT[inner]}"
    return None


_INT_TEXT = lazy_re(r"^[+-]?\d+$")
_OBJECT_TEXT = lazy_re(r"^{.*}$")
_BOOL_TEXT = {"true", "false", "0", "1", "yes", "no", "on", "off", "t", "f", "y", "n"}


def _kwarg_checked(value: Any, choices: Optional[list[Any]]) -> bool:
    """Whether a keyword argument's value meets the command line's choices at all. ``LLM(...)`` and
    ``EngineArgs(...)`` never pass through argparse: numeric choices (``block_size``) are the
    parser's alone (Neuron-era configs took 1024-4096), and the configs lower-case the strings
    they validate (``quantization="AWQ"`` is ``awq``), so only a string that matches no choice in
    any case is checked."""
    if not choices or not isinstance(value, str):
        return False
    return value.lower() not in {str(c).lower() for c in choices}


def _json_keys_error(ctx: LintContext, opt, keys: list[str], values: Optional[dict] = None) -> Optional[tuple[str, str]]:
    """(message, severity) for the first key of ``keys`` the option's config class refuses or
    ignores, or whose value (``values``: key -> parsed value) its field refuses."""
    cfg = ctx.surface.json_config_for(opt)
    fields = (cfg or {}).get("fields")
    if not fields:
        return None
    unknown = [k for k in keys if k.rstrip("+") not in fields]
    ignored = bool(unknown) and ctx.surface.json_extra_keys_ignored(cfg)
    if unknown and not ignored:
        return _unknown_keys(ctx, opt, unknown, fields), "error"
    if ctx.surface.json_types_validated(cfg):
        # a refused value of a known key outranks the keys the class ignores
        for k, v in (values or {}).items():
            f = fields.get(k.rstrip("+"))
            if f is None:
                continue
            names = f.get("enum_names")
            if names and isinstance(v, str) and not k.endswith("+") and v.upper() not in names["names"] \
                    and v.lower() not in names.get("also", ()):
                # the class's validator looks the string up as a member name (field_checks.enum_lookups)
                words = [n.lower() for n in names["names"]] + list(names.get("also", ()))
                return (f"key `{k}` of `{opt.name}` must name one of {', '.join(words)} (any case) at vLLM "
                        f"{ctx.target} (got `{v}`)"), "error"
            choices = f.get("choices")
            if names and v is not None and not isinstance(v, str) and not k.endswith("+") and choices \
                    and all(isinstance(c, str) for c in choices if c is not None) and v not in choices:
                # not a string: the validator hands it to the enum, whose values are all strings
                words = [n.lower() for n in names["names"]]
                return (f"key `{k}` of `{opt.name}` must be a string naming one of {', '.join(words)} at vLLM "
                        f"{ctx.target} (got `{json.dumps(v)}`)"), "error"
            found = _names_error(ctx, opt, k, f, v)
            if found:
                return found
            found = _rewritten_choice_error(ctx, opt, k, f, v) or _keyed_error(ctx, opt, k, f, v) \
                or _item_names_error(ctx, opt, k, f, v)
            if found:
                return found
            seen_first = f.get("prevalidated")
            if seen_first is True or (seen_first and _json_kind(v) in seen_first):
                continue  # a validator of the class sees (and may change) the value first
            if isinstance(v, dict) and f.get("keys") is not None:
                found = _nested_keys_error(ctx, opt, k.rstrip("+"), f, list(v))
                if found:
                    return found
            err = _field_value_error(f.get("type"), f.get("choices") if f.get("choices_enforced") else None, v,
                                     f.get("constraints"), bool(f.get("object")))
            if err:
                return f"key `{k}` of `{opt.name}` must be {err} (got `{json.dumps(v)}`)", "error"
    if unknown:
        return _unknown_keys(ctx, opt, unknown, fields) + ": ignored, it has no effect", "warning"
    return None


def _rewritten_choice_error(ctx: LintContext, opt, key: str, f: dict, v: Any) -> Optional[tuple[str, str]]:
    """A string whose rewrite by the field's before validator (``fields.<key>.transform``: the
    string methods it applies, ``--kernel-config.moe_backend``'s lower-case and ``-`` to ``_``) is
    none of the field's string ``Literal`` choices: pydantic refuses it after the rewrite."""
    steps = f.get("transform")
    if not steps or not f.get("choices_enforced") or not isinstance(v, str) or key.endswith("+"):
        return None
    from ..surface.db import WORD_METHODS

    word = v
    for method, *args in steps:
        if WORD_METHODS.get(method) != len(args):
            return None
        word = getattr(word, method)(*args)
    if word in f["choices"]:
        return None
    return (f"key `{key}` of `{opt.name}` must be one of {', '.join(map(str, f['choices']))} at vLLM "
            f"{ctx.target}, as its validator rewrites it (got `{v}`)"), "error"


def _keyed_error(ctx: LintContext, opt, key: str, f: dict, v: Any) -> Optional[tuple[str, str]]:
    """An object whose keys (``fields.<key>.key_values``: an enum's values) or string items
    (``value_names``: looked up as an enum member's upper-case name) the field's before validator
    refuses (``--attention-config.backend_per_kind``: KV-cache kinds to backend names, 0.33+);
    a value that is no object goes on to the field's type, which takes only an object."""
    kinds = f.get("key_values")
    if kinds is None or key.endswith("+"):
        return None
    if not isinstance(v, dict):
        err = _field_value_error(f.get("type"), None, v)
        return (f"key `{key}` of `{opt.name}` must be {err} (got `{json.dumps(v)}`)", "error") if err else None
    names = (f.get("value_names") or {}).get("names")
    for k, item in v.items():
        if k not in kinds:
            return (f"key `{key}.{k}` of `{opt.name}` must be one of {', '.join(kinds)} at vLLM {ctx.target}"), "error"
        if names and not isinstance(item, str):
            return (f"key `{key}.{k}` of `{opt.name}` must be a string naming one of "
                    f"{', '.join(n.lower() for n in names)} at vLLM {ctx.target} (got `{json.dumps(item)}`)"), "error"
        if names and item.upper() not in names:
            return (f"key `{key}.{k}` of `{opt.name}` must name one of {', '.join(n.lower() for n in names)} "
                    f"(any case) at vLLM {ctx.target} (got `{item}`)"), "error"
    return None


def _item_names_error(ctx: LintContext, opt, key: str, f: dict, v: Any) -> Optional[tuple[str, str]]:
    """An object field whose items are each a name of the release's table or, where the items' type
    holds the nested class (``item_keys``), an object of it (``fields.<key>.item_names`` /
    ``item_keys`` / ``item_key_names``: ``--quantization-config.targets``, names only at 0.33.0):
    a value that is no object, an item that is neither, a name outside the table, a nested key or
    name the nested class refuses."""
    names = f.get("item_names")
    if names is None or key.endswith("+") or v is None:
        return None
    if not isinstance(v, dict):
        return f"key `{key}` of `{opt.name}` must be an object (got `{json.dumps(v)}`)", "error"
    keys, key_names = f.get("item_keys"), f.get("item_key_names") or {}
    for k, item in v.items():
        if isinstance(item, str):
            if item not in names:
                return _names_message(ctx, opt, f"{key}.{k}", names, item), "error"
        elif isinstance(item, dict) and keys is not None:
            for nk, nv in item.items():
                if keys is not None and nk not in keys:
                    return _unknown_keys(ctx, opt, [f"{key}.{k}.{nk}"],
                                         {f"{key}.{k}.{x}": None for x in keys}), "error"
                if isinstance(nv, str) and nk in key_names and nv not in key_names[nk]:
                    return _names_message(ctx, opt, f"{key}.{k}.{nk}", key_names[nk], nv), "error"
        else:
            # an object only where the items' type holds the nested class (``item_keys``)
            what = "a name or an object" if keys is not None else "a name"
            return (f"key `{key}.{k}` of `{opt.name}` must be {what} at vLLM {ctx.target} "
                    f"(got `{json.dumps(item)}`)"), "error"
    return None


def _names_error(ctx: LintContext, opt, key: str, f: dict, v: Any) -> Optional[tuple[str, str]]:
    """A name the field's validator looks up and does not find (``fields.<key>.names`` for a string
    of the field, ``key_names`` for a string of a nested key: ``--quantization-config.moe foo``,
    ``--quantization-config.moe.weight foo``); other values are left to the other checks."""
    if key.endswith("+"):
        return None
    if isinstance(v, str) and f.get("names") is not None:
        if v not in f["names"]:
            return _names_message(ctx, opt, key, f["names"], v), "error"
    elif isinstance(v, dict) and f.get("key_names"):
        for nk, nv in v.items():
            names = f["key_names"].get(nk)
            if names is not None and isinstance(nv, str) and nv not in names:
                return _names_message(ctx, opt, f"{key}.{nk}", names, nv), "error"
    return None


def _names_message(ctx: LintContext, opt, key: str, names: list[str], v: str) -> str:
    close = close_match(v, names, 0.7)
    hint = f" (did you mean `{close}`?)" if close else ""
    return (f"key `{key}` of `{opt.name}` must name one of {', '.join(names)} at vLLM {ctx.target} "
            f"(got `{v}`){hint}")


def _nested_keys_error(ctx: LintContext, opt, key: str, f: dict, nested: list[str]) -> Optional[tuple[str, str]]:
    """The keys of a nested config object (``fields.<key>.keys``: a class that forbids every other)
    that it refuses: ``--quantization-config.moe.activaiton``."""
    unknown = [f"{key}.{k}" for k in nested if k.rstrip("+") not in f["keys"]]
    if not unknown:
        return None
    return _unknown_keys(ctx, opt, unknown, {f"{key}.{k}": None for k in f["keys"]}), "error"


def _unknown_keys(ctx: LintContext, opt, unknown: list[str], fields: dict) -> str:
    hints = []
    for k in unknown:
        close = close_match(k.rstrip("+"), fields, 0.7)
        hints.append(f"`{k}`" + (f" (did you mean `{close}`?)" if close else ""))
    return f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(hints)} in `{opt.name}` at vLLM {ctx.target}"


def _start_json_problem(ctx: LintContext, arg, opt, v: str) -> Optional[tuple[str, str]]:
    """The last value of an option the parser reads as any JSON (``json.loads``) whose config field
    start-up hands it to refuses by its type (``start_fields.<dest>.json_type``:
    ``--custom-histogram-buckets 2``, ``ObservabilityConfig``'s ``dict[str, list[float]] | None``)."""
    start = ctx.surface.start_fields.get(opt.dest) or {}
    ftype = start.get("json_type")
    if not ftype or opt.kind == "json" or (opt.optional and v in ("", "None")):
        return None
    try:
        parsed = json.loads(v)
    except ValueError:
        return None  # the parser refuses it (reported above)
    err = _field_value_error(ftype, None, parsed)
    if err is None:
        return None
    return (f"value of `{arg.written}` must be {err}: vLLM {ctx.target} refuses `{v}` when it builds its "
            f"configuration ({start['class']}.{opt.dest} is `{ftype}`)"), "error"


def _pep440(text: str) -> bool:
    """``packaging.version.parse`` takes the word (what vLLM's validator calls)."""
    from packaging.version import InvalidVersion, Version

    try:
        Version(text)
    except InvalidVersion:
        return False
    return True


def _dotted_value(text: str) -> Any:
    """A dotted key's value as vLLM reads it: JSON where it parses, else the string."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _json_value_problem(ctx: LintContext, arg, opt, v: str) -> Optional[tuple[str, str]]:
    """(message, severity) for the value ``v`` of a JSON-valued option, or None."""
    s = ctx.surface
    if opt.optional and v in ("", "None"):
        return None  # optional_type: the empty string and None are Python None
    if opt.type == "dict_or_str" and not _OBJECT_TEXT.match(v):
        return None  # union_dict_and_str: what is not `{...}` is kept as a string
    if arg.written == "-O" and v.isdigit() and not s.compilation_from_cli and (arg.inline_value or not s.o_level_key):
        # `-O3`: a compilation level wherever -O is the --compilation-config alias; at 0.9.2-0.11
        # only an attached level or a separate 0-3 is rewritten (`-O 4` is the JSON value 4)
        return None
    if opt.kind == "json" and s.compilation_from_cli and opt.dest == "compilation_config":
        # CompilationConfig.from_cli: a level 0-3, else a Python literal (ast.literal_eval)
        if v in ("0", "1", "2", "3"):
            return None
        import ast

        if s.compilation_from_cli_json:
            try:
                parsed = json.loads(v)  # 0.9.0-0.9.1: from_cli reads JSON
            except ValueError:
                return f"value of `{arg.written}` is neither a level 0-3 nor JSON", "error"
        else:
            try:
                parsed = ast.literal_eval(v)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                return f"value of `{arg.written}` is neither a level 0-3 nor a Python literal", "error"
        if not isinstance(parsed, dict):
            return f"value of `{arg.written}` must be a level 0-3 or an object", "error"
        return _json_keys_error(ctx, opt, [str(k) for k in parsed], {str(k): x for k, x in parsed.items()})
    if s.json_kvs_fallback(opt) and not _OBJECT_TEXT.match(v):
        found = _kvs_error(arg.written, v, s.kvs_empty_is_none)
        return (found, "error") if found else None
    try:
        parsed = json.loads(v)
    except ValueError:
        return f"value of `{arg.written}` is not valid JSON", "error"
    if parsed is None and opt.class_at_start and opt.default is None:
        return None  # the parser only decodes it, and start-up reads None as "not given"
    if isinstance(parsed, dict):
        return _json_keys_error(ctx, opt, list(parsed), parsed)
    if opt.kind == "json":
        return f"value of `{arg.written}` must be a JSON object (got `{v}`)", "error"
    return None


def _option_objects(ctx: LintContext) -> list[tuple[Any, dict, list]]:
    """(option, a JSON object its config class receives, the arguments it came from) for the JSON
    config options of the launch: each inline object (argparse runs the type function, which
    builds the class, on every occurrence) and the dotted keys of an option merged into one
    (vLLM's ``parse_args`` appends them as one more occurrence). Unknown values are left out."""
    out: list[tuple[Any, dict, list]] = []
    dotted: dict[str, tuple[Any, dict, list]] = {}
    unknown: set[str] = set()
    for arg in ctx.args:
        opt = arg.option
        if opt is None or arg.positional or opt.kind != "json":
            continue
        value = arg.value
        if arg.json_path is not None and arg.style == "argv":
            if value is None or not ctx.surface.dotted_json:
                continue
            if arg.value_opaque:
                unknown.add(opt.dest)
                continue
            _, obj, args = dotted.setdefault(opt.dest, (opt, {}, []))
            *parents, last = arg.json_path.split(".")
            for p in parents:
                child = obj.get(p)
                if not isinstance(child, dict):
                    child = obj[p] = {}
                obj = child
            if last.endswith("+"):
                obj[last[:-1]] = value.split(",")
            else:
                obj[last] = _dotted_value(value)
            args.append(arg)
        elif arg.value_opaque:
            continue
        elif arg.style == "argv" or arg.key_style in ("cli", "env"):  # (an entrypoint makes `--name value` of an env variable)
            try:
                parsed = json.loads(value) if isinstance(value, str) else None
            except ValueError:
                parsed = None
            if isinstance(parsed, dict):
                out.append((opt, parsed, [arg]))
        elif isinstance(value, dict) and ctx.launch is not None and ctx.launch.style != "kwargs":
            out.append((opt, value, [arg]))
    out += [v for dest, v in dotted.items() if dest not in unknown]
    return out


def _object_findings(ctx: LintContext, reported: set[str]):
    """What the config classes' own validators refuse in the objects of the launch
    (``knowledge.config_checks``: a connector without a role, values outside a hard-coded list)."""
    objects = _option_objects(ctx)
    if not objects:
        return
    # a class built at start-up gets the option's last object alone (the others are replaced)
    last = {opt.dest: i for i, (opt, _, _) in enumerate(objects) if opt.class_at_start}
    for i, (opt, obj, args) in enumerate(objects):
        if opt.name in reported:
            continue
        missing = _required_missing(ctx, opt, obj) if last.get(opt.dest, i) == i else None
        if missing is not None:
            reported.add(opt.name)
            yield ctx.diag(RULE, missing, args[-1].report_span, option=opt.name)
            continue
        failed = object_problem(opt.dest, ctx.surface.v, obj)
        if failed is None:
            found = _class_check_problem(ctx, opt, obj)
            if found is not None:
                key, message = found
                arg = next((a for a in args if (a.json_path or "").split(".")[0].rstrip("+") == key), args[-1])
                span = arg.value_tokens[0].span if arg.value_tokens and arg.value_tokens[0].span else arg.report_span
                if arg.keyed is not None and arg.keyed.value_span is not None:
                    span = arg.keyed.value_span
                reported.add(opt.name)
                yield ctx.diag(RULE, message, span, option=opt.name)
            continue
        arg = next((a for a in args if (a.json_path or "").split(".")[0].rstrip("+") == failed.key), args[-1])
        written = arg.written.split(".")[0] if arg.json_path is not None else arg.written
        if isinstance(failed, Requires):
            message = (f"`{written}` sets `{failed.key}` without `{failed.needs}`; vLLM {ctx.target} "
                       f"requires `{failed.needs}` with it")
        elif isinstance(failed, OnlyWith):
            message = (f"`{failed.key}` of `{written}` is only allowed with `{failed.other}` "
                       f"{' or '.join(failed.values)} at vLLM {ctx.target} (got "
                       f"`{obj.get(failed.other, failed.default)}`)")
        else:
            message = (f"`{failed.key}` of `{written}` must be one of {', '.join(failed.values)} at vLLM "
                       f"{ctx.target} (got `{obj[failed.key]}`)")
        span = arg.value_tokens[0].span if arg.value_tokens and arg.value_tokens[0].span else arg.report_span
        if arg.keyed is not None and arg.keyed.value_span is not None:
            span = arg.keyed.value_span
        reported.add(opt.name)
        yield ctx.diag(RULE, message, span, option=opt.name)


def _required_missing(ctx: LintContext, opt, obj: dict) -> Optional[str]:
    """The keys the option's config class requires (``fields.<key>.required``: no default) that the
    object its class is built from lacks: pydantic refuses the object ("Field required"),
    at parsing or where start-up builds the class (``--watermark-config '{"enforce": true}'``,
    0.34's ``WatermarkConfig`` needs its ``key``)."""
    cfg = ctx.surface.json_config_for(opt) or {}
    if not ctx.surface.json_types_validated(cfg):
        return None
    missing = [k for k, f in (cfg.get("fields") or {}).items() if f.get("required") and k not in obj]
    if not missing:
        return None
    keys = ", ".join(f"`{k}`" for k in missing)
    return (f"`{opt.name}` lacks key{'s' if len(missing) > 1 else ''} {keys}, which "
            f"{cfg.get('class') or 'its class'} requires at vLLM {ctx.target}: the class refuses the "
            f"object when it is built")


_UNKNOWN = object()


def _class_check_problem(ctx: LintContext, opt, obj: dict) -> Optional[tuple[str, str]]:
    """(the first key it names, message) for the first check of the option's config class (read
    from its validators, ``json_configs.<dest>.checks``) that the object certainly fails: each key
    the object gives, or the field's default where it does not. A value a validator of the class
    may change first, or a default computed at start, is not known and the check is not judged."""
    cfg = ctx.surface.json_config_for(opt) or {}
    fields = cfg.get("fields") or {}
    if not cfg.get("checks") or not ctx.surface.json_types_validated(cfg):
        return None

    def value(key: str) -> tuple[Any, bool]:
        f = fields.get(key)
        if f is None:
            return _UNKNOWN, False
        if key in obj:
            v = obj[key]
            seen_first = f.get("prevalidated")
            if seen_first is True or (seen_first and _json_kind(v) in seen_first) or f.get("enum_names"):
                return _UNKNOWN, True
            if _field_value_error(f.get("type"), None, v):
                return _UNKNOWN, True  # refused by its type first (reported as such where judged)
            return v, True
        if f.get("default_computed"):
            return _UNKNOWN, False
        return f.get("default"), False

    for check in cfg["checks"]:
        if "each" in check:
            found = _each_check_problem(ctx, opt, cfg, check, value)
            if found is not None:
                return found
            continue
        parts, given, certain = [], None, True
        for test in check["when"]:
            v, from_obj = value(test["dest"])
            other = value(test["dest2"])[0] if "dest2" in test else None
            held = holds(test, v, other, _UNKNOWN)
            if held is False:
                certain = False
                break
            if held is _UNKNOWN:
                certain = None
                continue
            if from_obj and given is None:
                given = test["dest"]
            parts.append(_class_test_words(test, v, from_obj, other))
        if certain and given is not None:
            return given, (f"vLLM {ctx.target} refuses `{opt.name}` with {', '.join(parts)}: a check of "
                           f"{cfg.get('class') or 'its class'} raises when the class is built")
    return None


def _each_check_problem(ctx: LintContext, opt, cfg: dict, check: dict, value) -> Optional[tuple[str, str]]:
    """The first item of a list key that a check over each item (``"each"``: ``for op in
    self.custom_ops: if ...: raise``) refuses, every other test of the check holding for certain:
    ``-cc.custom_ops '["a"]'`` (an item neither ``all`` / ``none`` nor ``+op`` / ``-op``)."""
    key = check["each"]
    items, given = value(key)
    if not given or not isinstance(items, list):
        return None
    for test in check["when"]:
        if "item" not in test:
            v = value(test["dest"])[0]
            other = value(test["dest2"])[0] if "dest2" in test else None
            if holds(test, v, other, _UNKNOWN) is not True:
                return None
    for item in items:
        if not isinstance(item, str):
            continue  # the list's type refuses it first
        held = True
        for test in check["when"]:
            if "item" not in test:
                continue
            of = test["item"]
            if of == "first" and not item:
                break  # `item[0]` of an empty string raises: a refusal too
            x = item if of == "value" else len(item) if of == "len" else item[0]
            if holds(test, x, None, _UNKNOWN) is not True:
                held = False
                break
        if held:
            return key, (f"vLLM {ctx.target} refuses `{opt.name}` with `{key}` item {json.dumps(item)}: a check of "
                         f"{cfg.get('class') or 'its class'} over each item raises when the class is built")
    return None


def _class_test_words(test: dict, v: Any, given: bool, other: Any) -> str:
    t, key = test["test"], f"`{test['dest']}`"
    shown = json.dumps(v)
    default = "" if given else " (the default)"
    if t == "set":
        return f"{key} {shown}{default}"
    if t in ("unset", "none"):
        return f"{key} {shown}{default}" if given else f"no {key}"
    if t == "not_none" or t in ("in", "not_in"):
        return f"{key} {shown}{default}"
    words = {"<": "below", "<=": "not above", ">": "above", ">=": "not below", "==": "", "!=": "other than"}[t]
    if "dest2" in test:
        return f"{key} {shown}{default} {words or 'equal to'} `{test['dest2']}` {json.dumps(other)}"
    if t == "==":
        return f"{key} {shown}{default}"
    return f"{key} {shown}{default}, {words} {json.dumps(test['value'])}"


@RULE.check
def check(ctx: LintContext):
    reported: set[str] = set()
    yield from _arg_findings(ctx, reported)
    # (the objects and the serve check's values only where the launch gives such an option: the
    # arguments looked at once here, not by each of their generators)
    objects = given = False
    checks = ctx.surface.serve_value_checks
    for a in ctx.args:
        opt = a.option
        if opt is not None:
            if opt.kind == "json":
                objects = True
            if checks and opt.dest in checks:
                given = True
    if objects:
        yield from _object_findings(ctx, reported)
    if given:
        yield from _serve_value_findings(ctx)


def _serve_value_findings(ctx: LintContext):
    """What ``validate_parsed_serve_args`` refuses in one option's value by itself
    (``serve_checks.values``: an object of strings with some keys, 0.33+'s
    ``--reasoning-effort-map``): the last whole value, or the dotted keys appended after it."""
    checks = ctx.surface.serve_value_checks
    la = ctx.launch
    if not checks or la is None or la.style != "argv" or not ctx.surface.validates_serve_args(la.entry):
        return
    for dest, c in checks.items():
        args = [a for a in ctx.args if a.option is not None and a.option.dest == dest and a.style == "argv"
                and not a.positional]
        if not args or any(a.value_opaque for a in args):
            continue
        dotted = [a for a in args if a.json_path is not None]
        if dotted:
            pairs = [(a, a.json_path.split(".")[0], None if "." in a.json_path else _dotted_value(a.value or ""))
                     for a in dotted if a.value is not None]
            items = [(a, k, v, "." in a.json_path) for a, k, v in pairs]
        else:
            last = args[-1]
            if last.value is None or (last.option.optional and last.value in ("", "None")):
                continue
            try:
                parsed = json.loads(last.value)
            except ValueError:
                continue  # the parser refuses it (reported above)
            if parsed is None:
                continue
            if not isinstance(parsed, dict):
                yield ctx.diag(RULE, f"value of `{last.written}` must be a JSON object of strings: vLLM "
                                     f"{ctx.target} refuses it right after parsing", last.report_span,
                               option=c["option"])
                continue
            items = [(last, str(k), v, False) for k, v in parsed.items()]
        for a, k, v, nested in items:
            if k not in c["keys"]:
                yield ctx.diag(RULE, f"key `{k}` of `{a.written.split('.')[0]}` is refused by vLLM {ctx.target} "
                                     f"right after parsing: the keys are {', '.join(c['keys'])}", a.report_span,
                               option=c["option"])
                break
            if nested or not isinstance(v, str):
                yield ctx.diag(RULE, f"key `{k}` of `{a.written.split('.')[0]}` must be a string: vLLM "
                                     f"{ctx.target} refuses it right after parsing", a.report_span,
                               option=c["option"])
                break


def _item_problem(items: dict, typed: Any) -> Optional[str]:
    """What a config class's ``after`` validator refuses in one item of a list option
    (``start_fields.<dest>.items``: 0.20.0+ ``--numa-bind-cpus``), or None; a bound (``ge``) is
    VL410's."""
    if typed is None:
        return "an item that is None"  # (the parser makes `''` / `None` None; the class takes none)
    if not isinstance(typed, str):
        return None
    if items.get("nonempty") and not typed:
        return "an empty item"
    pattern = items.get("pattern")
    if pattern:
        try:
            if re.fullmatch(pattern, typed) is None:
                return f"an item must match `{pattern}`"
        except re.error:
            return None
    if items.get("ascending"):
        for part in typed.split(","):
            low, dash, high = part.partition("-")
            if dash and low.isdigit() and high.isdigit() and int(low) > int(high):
                return f"the range `{part}` is not ascending"
    return None


class _ValuePlan(Record):
    """What VL105 checks in a word given to one option at one release, decided once per process
    for the (release, option) pair (``_plan``) rather than for each word of each launch: the
    adapter items (``adapter``: "lora_modules" / "prompt_adapters"), the device ids (``device``:
    the release's ``device_id_checks`` entry), `KEY=VALUE` pairs (``kvs``), a string start-up
    takes only as a mapping (``mapping``: its ``start_fields`` entry), JSON (``json``), the items
    of a list option (``item_choices``, ``items``), the config field start-up hands a plain string
    to (``start``: its ``start_fields`` entry, with choices or a version) and the release's
    optimization levels (``levels``); ``checked`` False where no check applies to any word (a
    string option without choices: ``--served-model-name``), which the launch's words then skip."""

    __slots__ = ("adapter", "device", "kvs", "mapping", "json", "item_choices", "start", "items", "levels", "checked")

    def __init__(self, surface, opt) -> None:
        fields = surface.start_fields
        field = fields.get(opt.dest) or {}
        listed = opt.nargs in ("+", "*")
        self.adapter = opt.dest if opt.dest in ("lora_modules", "prompt_adapters") else None
        self.device = surface.device_id_checks.get(opt.dest)
        self.kvs = opt.type == "kvs"
        self.mapping = fields[opt.dest] if opt.type == "dict_or_str" and field.get("mapping") else None
        self.json = opt.kind == "json" or opt.type in ("json", "dict_or_str")
        self.item_choices = field.get("item_choices") if listed else None
        start = fields.get(opt.dest) if not opt.choices and opt.nargs is None and opt.type in (None, "str") else None
        self.start = start if start is not None and (start.get("choices") or start.get("version")) else None
        self.items = field.get("items") if listed else None
        self.levels = surface.optimization_levels if opt.dest == "optimization_level" else None
        self.checked = bool(
            self.adapter or self.device is not None or self.kvs or self.json or opt.choices or self.item_choices
            or self.start is not None or opt.choices_vary or (opt.type or "").lower() in _TYPED
            or opt.kind == "bool_value" or self.items or self.levels)


_TYPED = ("int", "float", "human_int", "human_int_or_auto", "json")  # the types ``_type_error`` reads


def _plan(surface, opt) -> _ValuePlan:
    """The option's :class:`_ValuePlan` at the release of ``surface``: built at the first word given
    to it, then read from the release's table (option records are shared between releases, so the
    table is the release's, keyed by the option)."""
    plans = surface.__dict__.get("_value_plans")
    if plans is None:
        plans = surface.__dict__["_value_plans"] = {}
    plan = plans.get(id(opt))
    if plan is None:
        plan = plans[id(opt)] = (_ValuePlan(surface, opt), opt)  # (the option kept: its id stays its own)
    return plan[0]


class _LaunchWords:
    """What VL105 reads of a launch's words as a whole when it judges one of them: the last value
    of each dotted key (vLLM merges an option's dotted keys, a later value replacing an earlier
    one: `-Ox -O4` is `{"level": 4}`, so only the last is the class's to judge), the dotted keys
    given to an option that takes no JSON (``parse_args`` hands it their object as JSON text), and
    the whole value start-up gets for an option: the last one given, unless dotted keys of the
    option follow it (vLLM appends their object after every other word: 0.9.0+), gathered at the
    first word a check needs it for."""

    __slots__ = ("args", "last_dotted", "dotted_dests", "dotted_plain", "_last_whole")

    def __init__(self, ctx: LintContext) -> None:
        self.args = ctx.args
        dotted = [a for a in ctx.args if a.option is not None and a.json_path is not None and a.style == "argv"]
        self.last_dotted: dict = {}
        self.dotted_dests: set = set()
        self.dotted_plain: dict[str, list] = {}
        self._last_whole: Optional[dict] = None
        if not dotted:  # (most launches: none)
            return
        self.last_dotted = {(a.option.dest, a.json_path): a for a in dotted}
        self.dotted_dests = {a.option.dest for a in dotted}
        if ctx.surface.dotted_json:
            for a in dotted:
                if a.option.kind != "json" and a.option.type not in ("json", "dict_or_str"):
                    self.dotted_plain.setdefault(a.option.dest, []).append(a)

    def is_whole(self, arg) -> bool:
        """Is ``arg`` the last whole value given to its option (dotted keys of it may follow)?"""
        if self._last_whole is None:
            self._last_whole = {a.option.dest: a for a in self.args
                                if a.option is not None and a.json_path is None and a.style == "argv"}
        return self._last_whole.get(arg.option.dest) is arg

    def start_value(self, arg) -> bool:
        """Is ``arg`` the whole value start-up gets for its option (the last given, no dotted keys of it)?"""
        return self.is_whole(arg) and arg.option.dest not in self.dotted_dests


def _arg_findings(ctx: LintContext, reported: set[str]):
    words = _LaunchWords(ctx)
    for arg in ctx.args:
        opt = arg.option
        if opt is None or arg.positional or arg.value_opaque:
            continue
        if arg.json_path is not None:
            found = _dotted_problem(ctx, arg, opt, words, reported)
        elif arg.style == "argv" or arg.key_style in ("cli", "env"):  # (an entrypoint makes `--name value` of an env variable)
            found = _word_problem(ctx, arg, opt, words)
        else:
            found = _python_value_problem(ctx, arg, opt)
        if found is None:
            continue
        problem, severity, fix = found
        span = arg.value_tokens[0].span if arg.value_tokens and arg.value_tokens[0].span else arg.report_span
        if arg.keyed is not None and arg.keyed.value_span is not None:
            span = arg.keyed.value_span
        if severity == "error":
            reported.add(opt.name)
        yield ctx.diag(RULE, problem, span, option=opt.name, severity=severity, fix=fix)


def _dotted_problem(ctx: LintContext, arg, opt, words: _LaunchWords, reported: set[str]) -> Optional[_Found]:
    """A dotted key (`--compilation-config.level 3`, `-O.mode x`): an option that takes no JSON
    given keys (``_dotted_plain_problem``), or a key, nested key or value the config class refuses."""
    if opt.kind != "json" and opt.type not in ("json", "dict_or_str"):
        problem = _dotted_plain_problem(ctx, opt, arg, words.dotted_plain, reported)
        return (problem, "error", None) if problem else None
    value = arg.value
    head = arg.json_path.split(".")[0]
    nested = "." in arg.json_path
    superseded = arg.style == "argv" and words.last_dotted.get((opt.dest, arg.json_path)) is not arg
    got = None if value is None or nested or superseded else {
        head: value.split(",") if head.endswith("+") else _dotted_value(value)}
    found = _json_keys_error(ctx, opt, [head], got)
    if found is None and nested:
        found = _nested_key_problem(ctx, arg, opt, head, value, superseded)
    return (*found, None) if found else None


def _nested_key_problem(ctx: LintContext, arg, opt, head: str, value, superseded: bool) -> Optional[tuple[str, str]]:
    """`--quantization-config.moe.activaiton x`: what the nested class of a dotted key refuses (a
    kind, a name or a key it does not know)."""
    config = ctx.surface.json_config_for(opt)
    f = ((config or {}).get("fields") or {}).get(head.rstrip("+"))
    if f is None:
        return None
    found = None
    one_level = arg.json_path.count(".") == 1
    key = arg.json_path.split(".")[1]
    given = one_level and value is not None and not superseded
    if f.get("key_values") is not None and given and ctx.surface.json_types_validated(config):
        # `-ac.backend_per_kind.foo X`: a kind the validator does not know
        found = _keyed_error(ctx, opt, head, f, {key: _dotted_value(value)})
    if f.get("item_names") is not None and given and ctx.surface.json_types_validated(config):
        # `--quantization-config.targets.<pattern> foo`: a name the table lacks
        found = _item_names_error(ctx, opt, head, f, {key: _dotted_value(value)})
    seen_first = f.get("prevalidated")
    if f.get("keys") is not None and ctx.surface.json_types_validated(config) \
            and not (seen_first is True or (seen_first and "object" in seen_first)):
        found = _nested_keys_error(ctx, opt, head.rstrip("+"), f, [key])
        if found is None and given:
            # `--quantization-config.moe.weight foo`: a name the nested key's validator lacks
            found = _names_error(ctx, opt, head, f, {key: _dotted_value(value)})
    return found


def _word_problem(ctx: LintContext, arg, opt, words: _LaunchWords) -> Optional[_Found]:
    """A command-line word given to an option (`--dtype half`, each word of `--x a b`): the first
    value refused, in the order of ``_value_problem``'s checks."""
    value = arg.value
    if value is None:
        return None
    if not opt.takes_value(arg.resolved_string or arg.written) and arg.how != "o-rewrite":
        if arg.inline_value:
            return f"`{arg.written}` takes no value (got `{value}`)", "error", None
        return None
    plan = _plan(ctx.surface, opt)
    if not plan.checked:
        return None
    values = [t.text for t in arg.value_tokens] if len(arg.value_tokens) > 1 else [value]
    for v in values:
        found = _value_problem(ctx, arg, opt, plan, words, v, len(values) == 1)
        if found is not None:
            return found
    return None


def _value_problem(ctx: LintContext, arg, opt, plan: _ValuePlan, words: _LaunchWords, v: str,
                   alone: bool) -> Optional[_Found]:
    """What the release refuses (or warns of) in the word ``v`` given to ``opt``; ``alone``: the
    only word of its option."""
    if plan.adapter is not None:
        from ..knowledge.adapters import lora_item_problem, prompt_adapter_item_problem

        judge = lora_item_problem if plan.adapter == "lora_modules" else prompt_adapter_item_problem
        problem = judge(ctx.surface.v, arg.written, v)
        return (problem, "error", None) if problem else None
    if plan.device is not None:
        from ..knowledge.device_ids import device_ids_problem

        problem = device_ids_problem(arg.written, v, plan.device)
        if problem:
            return problem + f": vLLM {ctx.target} refuses it when it builds its configuration", "error", None
        return None
    if plan.kvs:
        problem = _kvs_error(arg.written, v, ctx.surface.kvs_empty_is_none)
        return (problem, "error", None) if problem else None
    unset = opt.optional and v in ("", "None")  # (the parser makes those None)
    if plan.mapping is not None and alone and not _OBJECT_TEXT.match(v) and not unset and words.start_value(arg):
        # union_dict_and_str keeps the word as a string; the config class start-up
        # hands it to takes only a mapping (start_fields: "mapping")
        return (f"value of `{arg.written}` must be a JSON object: the parser keeps `{v}` as a "
                f"string, and vLLM {ctx.target} refuses it when it builds its configuration "
                f"({plan.mapping['class']}.{opt.dest} takes an object)"), "error", None
    if plan.json:
        found = _json_value_problem(ctx, arg, opt, v)
        if found is None and alone and words.start_value(arg):
            found = _start_json_problem(ctx, arg, opt, v)
        return (*found, None) if found else None
    typed = v if unset else opt.as_typed(v)
    if opt.choices and opt.choices_platform and typed != "" and not _choice_ok(typed, opt.choices, opt.optional):
        # the platform adds its own device type to the choices, never the empty word
        fixed = ", ".join(map(str, opt.choices))
        ctx.skip(RULE, f"`{arg.written} {v}`: vLLM {ctx.target} takes {fixed} and the device type "
                       "of the platform it runs on, which is not known statically")
        return None
    if opt.choices and not _choice_ok(typed, opt.choices, opt.optional):
        shown = ", ".join(str(c) for c in opt.choices)
        if opt.choices_platform:
            shown += " or the device type of the platform"
        read = f" (read as `{typed}`)" if typed != v else ""
        problem = f"invalid value `{v}`{read} for `{arg.written}` at vLLM {ctx.target}: expected one of {shown}"
        fix = None
        if alone:
            problem, fix = _retired_value(ctx, arg, opt, v, typed, problem)
        return problem, "error", fix
    return _config_value_problem(ctx, arg, opt, plan, words, v, typed, unset)


def _config_value_problem(ctx: LintContext, arg, opt, plan: _ValuePlan, words: _LaunchWords, v: str, typed,
                          unset: bool) -> Optional[_Found]:
    """``_value_problem``'s checks past the parser's choices: the items, choices and versions the
    config classes take at start-up, the choices that vary between processes, the parser's type,
    and the optimization levels."""
    items = plan.item_choices if plan.item_choices and words.is_whole(arg) else None
    if items and v not in items and not unset:
        return (f"invalid value `{v}` for `{arg.written}`: vLLM {ctx.target} refuses it when it "
                f"builds its configuration (each item is one of {', '.join(items)})"), "error", None
    start = plan.start
    if start is not None and start.get("choices") and v not in start["choices"] and not unset:
        shown = ", ".join(str(c) for c in start["choices"])
        return (f"invalid value `{v}` for `{arg.written}`: vLLM {ctx.target} refuses it when it "
                f"builds its configuration ({start['class']} takes one of {shown})"), "error", None
    if start is not None and start.get("version") and not unset and not _pep440(v):
        return (f"invalid value `{v}` for `{arg.written}`: vLLM {ctx.target} refuses it when it "
                f"builds its configuration ({start['class']} takes a version, such as `0.7`)"), "error", None
    if typed in opt.choices_vary:
        # the release picks this option's choices from one of two sets, in an
        # order that changes between processes (Option.choices_vary)
        return (f"`{v}` for `{arg.written}` is refused by some processes of vLLM "
                f"{ctx.target} and accepted by others: the release takes the option's "
                "choices from one of two sets, in an order that changes at every start"), "warning", None
    err = _type_error(opt.type, v, opt.optional)
    if opt.kind == "bool_value" and v.lower() not in ("true", "false"):
        err = "true or false"  # vLLM's StoreBoolean action (to 0.7): nothing else
    if err:
        return f"invalid value `{v}` for `{arg.written}`: expected {err}", "error", None
    if plan.items and words.is_whole(arg):
        found = _item_problem(plan.items, None if unset else typed)
        if found:
            start = ctx.surface.start_fields[opt.dest]
            return (f"invalid item `{v}` for `{arg.written}`: vLLM {ctx.target} refuses it when it "
                    f"builds its configuration ({start['class']}.{opt.dest}: {found})"), "error", None
    levels = plan.levels
    if levels and v not in {str(n) for n in levels} and arg is _last_level(ctx):
        # the parser takes any word; VllmConfig refuses it when the engine starts
        return (f"optimization level `{v}` is refused at start-up by vLLM {ctx.target}: "
                f"the levels are {', '.join(str(n) for n in levels)}"), "error", None
    return None


def _python_value_problem(ctx: LintContext, arg, opt) -> Optional[_Found]:
    """A keyword argument or config key: a Python value (a JSON option's keys, a choice)."""
    value = arg.value
    if value is None or isinstance(value, bool):
        return None
    if opt.kind == "json" and isinstance(value, dict):
        found = _json_keys_error(ctx, opt, [str(k) for k in value])
        return (*found, None) if found else None
    if ctx.launch is not None and ctx.launch.style == "kwargs" and not _kwarg_checked(value, opt.choices):
        return None
    if opt.choices and isinstance(value, (str, int, float)) and not _choice_ok(value, opt.choices, opt.optional):
        shown = ", ".join(str(c) for c in opt.choices)
        problem = f"invalid value `{value}` for `{arg.written}` at vLLM {ctx.target}: expected one of {shown}"
        fix = None
        if isinstance(value, str):
            problem, fix = _retired_value(ctx, arg, opt, value, value, problem)
        return problem, "error", fix
    return None


def _last_level(ctx: LintContext):
    """The last optimization level given, the one start-up validates (`-O4 -O3` is level 3; a
    `-O.key` word is one too from 0.13: `--optimization-level .key`, reported by VL101)."""
    return next((a for a in reversed(ctx.args) if a.style == "argv" and (
        a.option is not None and a.option.dest == "optimization_level"
        or a.written.startswith("-O.") and ctx.surface.o_flag == "optimization-level"
        and not ctx.surface.o_dotted_is_cc)), None)


def _dotted_plain_problem(ctx: LintContext, opt, arg, dotted_plain: dict[str, list], reported: set[str]) -> Optional[str]:
    """An option that is no JSON config given dotted keys (``--max-model-len.x=3``): from the
    release that reads dotted keys, ``parse_args`` merges them into one object and passes it as
    JSON text to the option, whose type then judges that text. Reported once, on the option's
    first dotted word, where the type refuses any object (a number, a choice, true or false)."""
    group = dotted_plain.get(opt.dest) or []
    if not group or group[0] is not arg or opt.name in reported or opt.kind not in ("valued", "bool_value") \
            or opt.nargs is not None or any(a.value is None or a.value_opaque for a in group):
        return None
    obj: dict = {}
    for a in group:
        *parents, last = a.json_path.split(".")
        node = obj
        for p in parents:
            child = node.get(p)
            if not isinstance(child, dict):
                child = node[p] = {}  # a later object replaces an earlier value, as vLLM merges
            node = child
        node[last.rstrip("+")] = a.value.split(",") if last.endswith("+") else _dotted_value(a.value)
    text = json.dumps(obj)
    if opt.choices:
        err = "one of " + ", ".join(str(c) for c in opt.choices)
    elif opt.kind == "bool_value":
        err = "true or false"
    elif opt.type == "kvs":
        err = "KEY=VALUE pairs"
    else:
        err = _type_error(opt.type, text, opt.optional)
    if not err:
        return None  # a string option takes the text as it is
    base = arg.written.split(".")[0]
    return (f"`{arg.written}`: `{base}` is not a JSON config option, so vLLM {ctx.target} gives it the dotted "
            f"keys as the JSON text `{text}`, which it refuses: expected {err}")


def _retired_value(ctx: LintContext, arg, opt, written: str, typed: str, problem: str) -> tuple[str, Optional[Fix]]:
    """A refused choice that an earlier release deprecated in favour of another value: the
    message names the successor, and the fix puts it in (byte-exact, where it is a choice here)."""
    found = ctx.db.deprecated_value(opt.name, typed, ctx.target)
    if found is None:
        return problem, None
    last, succ = found
    problem += f" (`{typed}` was deprecated at vLLM {last}"
    if not succ or succ not in opt.choices:
        return problem + ")", None
    problem += f" in favour of `{succ}`)"
    edits = value_edits(ctx, arg, written, succ)
    return problem, Fix(edits, "safe", f"Replace `{written}` with `{succ}`") if edits else None
