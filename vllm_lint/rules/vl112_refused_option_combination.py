"""## What it does
Finds a `vllm serve` command line (or one of `python -m vllm.entrypoints.openai.api_server`, or
the arguments of a vLLM image that runs either) that sets an option the target release's
start-up check requires a second option for, without the second one, or that sets two options
the check refuses together:

| release | refused |
| --- | --- |
| 0.6.3 and later | `--enable-auto-tool-choice` without `--tool-call-parser` |
| 0.7.1 - 0.8.5 | `--enable-reasoning` without `--reasoning-parser` |
| 0.7.1 - 0.8.1 | `--enable-auto-tool-choice` with `--enable-reasoning` |
| 0.9.0 - 0.9.2 | `--enable-prompt-embeds` with `--enable-prompt-adapter` |
| 0.11.0 and later | `--enable-log-outputs` without `--enable-log-requests` |
| 0.25.0 and later | `--enable-per-request-metrics` with `--disable-log-stats` |
| 0.22.0 and later | `--data-parallel-multi-port-external-lb` (`-dpm`) with `--data-parallel-size` below 2, without `--data-parallel-size-local` or with it below 2 or above the size, with `--grpc`, `--uds`, `--data-parallel-rank`, `--data-parallel-external-lb`, `--data-parallel-hybrid-lb`, `--api-server-count` other than 1, or one of `--ssl-keyfile` / `--ssl-certfile` without the other |
| 0.29.0 and later | `--sse-keep-alive-interval` below 0 |
| 0.32.0 and later | `--grpc-port` with `--grpc`, `--headless`, `--api-server-count` 0 or less, `-dpm`, outside 0-65535, or equal to `--port`; any `--grpc-port` under the api_server module; `--grpc-port` where `VLLM_USE_RUST_FRONTEND` is not on (decided only where the launch's environment is known, below) |
| (config classes) | what a config class built from plain options before the model is read refuses: `--collect-detailed-traces` without `--otlp-traces-endpoint` (ObservabilityConfig) |
| 0.22.0 - 0.29.0 | `--quantization-config` beside a `--quantization` that is not an online shorthand (`--quantization inc`; EngineArgs' `resolve_quantization_config`, every start; 0.30.0+ composes them) |

(The table is what the flag database holds today; the rule reads each release's checks from it.
vLLM raises at the first check that refuses, so one launch gets one finding.)

## Why is this bad?
Right after parsing, both entry points call `validate_parsed_serve_args`, which raises for these
combinations: the server does not start. The parser itself accepts each option, so nothing
else reports it.

## Example
```bash
vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice
```
`VL112 `--enable-auto-tool-choice` requires `--tool-call-parser`: vLLM 0.27.1 refuses to start
without it`

## Fix safety
No fix: which parser to name, or which feature to drop, is the operator's choice. The message
says what would start.

## Evidence
The checks are read from each release's source (`serve_checks` in `flag_db/README.md`: every
`if <condition>: raise` of `validate_parsed_serve_args` and of the validators it calls with the
namespace, the condition as tests of option values, and which entry points call it). A check
fires only where every test is known to hold: the values the command line gives, else the
option's default; a value that is a variable or a computed default keeps the rule silent, with a
note in `--verbose`. A check that tests an environment variable (`--grpc-port` needs
`VLLM_USE_RUST_FRONTEND` on) reads the launch's known environment: the variables the file sets
for it (`VAR=1 vllm serve`, `export`, a container's `env:`, `docker run -e`) decide (`1` on, `0`
off, another word or a variable: not known); a variable it does not set counts as absent (the
release's default) only in a Kubernetes container or compose service whose whole environment is
in the file (no `envFrom` / `env_file`, no template) running vLLM's own image; anywhere else the
caller's environment may set it, and the rule stays silent with a note in `--verbose`. An option
counts as set when the command line gives a switch (not
its `--no-` form) or a value that is not empty, `false` or `None`; an absent option has its
default. The rule stays silent where it cannot be sure: a launch that may carry words it cannot
see (`"$@"`, `$EXTRA_ARGS`, a quoted variable in option position), a `--config` file (it may
give the missing option), a value that is a variable, a wrapper that parses the command line
itself (Dynamo, KServe), and `LLM(...)` / `EngineArgs(...)` in Python, which never run this
check. Compared with the real validators of 0.7.3, 0.8.5, 0.9.2, 0.11.0, 0.27.1 and 0.33.0 (33
command lines each, run through the release's own parser and `validate_parsed_serve_args` in
its `tools/crosscheck/` venv): the rule fires exactly where the validator refuses, and is silent
where the parser refuses the line first.
"""

from __future__ import annotations

from ..knowledge.config_checks import holds
from ..knowledge.layout import as_bool, as_float, as_int
from .base import LintContext, Rule

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

RULE = Rule(code="VL112", name="refused-option-combination",
            summary="options the release's start-up check refuses together (or one without the other it needs)",
            severity="error")

_UNKNOWN = object()  # a setting whose truth is not known statically
_GIVEN = object()  # a config object the line gives: not None, its value not compared


def _prints_and_exits(word: str) -> bool:
    w = word.split("=")[0]
    return w == "-h" or len(w) >= 4 and ("--help".startswith(w) or "--version".startswith(w))


def _incomplete(ctx: LintContext) -> Optional[str]:
    """Why the launch's options are not all known, or None: words we cannot see, a word that is a
    variable where an option could be, a ``--config`` file, a help or version request."""
    la = ctx.launch
    if la.opaque or any(t.splat for t in la.tokens):
        return "the launch may pass options we cannot see"
    known_values = {id(t) for a in ctx.args if a.option is not None or a.positional for t in a.value_tokens}
    for a in ctx.args:
        if a.positional and a.how != "stray":  # the positional model, a variable or not
            known_values.update(id(t) for t in a.tokens)
    for t in la.tokens:
        if t.opaque and id(t) not in known_values:
            return f"`{t.text}` may be an option"
        if not t.opaque and _prints_and_exits(t.text):
            return "the command prints and exits"
    if any(a.option is not None and a.option.dest == "config" for a in ctx.args):
        return "a --config file may set the options"
    for a in ctx.args:
        if a.structure in ("missing-value", "stray") or a.option is None and not a.positional:
            return "the parser refuses the line before the check runs"
    return None


def _given(ctx: LintContext, dest: str) -> Any:
    """The last argument that sets ``dest``, None when none does, _UNKNOWN when an ambiguous
    abbreviation may be one."""
    last = None
    s = ctx.surface
    for a in ctx.args:
        if a.option is None:
            if a.how == "ambiguous" and any(c in s.by_string and s.by_string[c].dest == dest for c in a.ambiguous):
                return _UNKNOWN
            continue
        if a.option.dest == dest and not a.positional:
            last = a
    return last


def _truth(arg) -> Any:
    """What ``bool(args.<dest>)`` is after the parser read ``arg``: True, False or _UNKNOWN."""
    o = arg.option
    if arg.json_path or arg.structure is not None:
        return _UNKNOWN
    written = arg.resolved_string or arg.written
    if o.kind == "negatable":
        if arg.inline_value:
            return _UNKNOWN  # argparse refuses a value for it
        return written not in o.negations
    if o.kind == "switch":
        if arg.inline_value or not isinstance(o.default, bool):
            return _UNKNOWN
        return not o.default  # store_true / store_false
    if arg.value_opaque or not isinstance(arg.value, str) or o.nargs is not None or o.transform:
        return _UNKNOWN
    v = arg.value
    if o.choices is not None:
        word = "None" if o.optional and v in ("", "None") else o.as_typed(v)
        if word not in [c if isinstance(c, str) else str(c) for c in o.choices]:
            return _UNKNOWN  # the parser refuses the value first (VL105)
    if o.kind == "bool_value":
        b = as_bool(v)
        return _UNKNOWN if b is None else b
    if o.kind != "valued":
        return _UNKNOWN
    if o.optional and v in ("", "None"):
        return False  # optional_type / nullable_str turn the word into None
    if o.type == "str":
        return v != ""
    if o.type == "int":
        i = as_int(v)
        return _UNKNOWN if i is None else i != 0
    if o.type == "float":
        f = as_float(v)
        return _UNKNOWN if f is None else f != 0
    return _UNKNOWN


def _default_truth(ctx: LintContext, dest: str) -> Any:
    opts = ctx.surface.options_by_dest.get(dest, ())
    if not opts or any(o.default_computed for o in opts):
        return _UNKNOWN
    defaults = {repr(o.default) for o in opts}
    if len(defaults) != 1:
        return _UNKNOWN  # argparse takes the first action's default; the database keeps no order
    d = opts[0].default
    if isinstance(d, str) and opts[0].optional and d == "None":
        return _UNKNOWN
    return bool(d)


def _setting(ctx: LintContext, dest: str) -> tuple[Any, Any]:
    """(truth, the argument that gave it or None)."""
    arg = _given(ctx, dest)
    if arg is _UNKNOWN:
        return _UNKNOWN, None
    if arg is None:
        return _default_truth(ctx, dest), None
    return _truth(arg), arg


def _value(arg) -> Any:
    """The value ``args.<dest>`` holds after the parser read ``arg`` (a number, a string, None or a
    boolean), or _UNKNOWN."""
    o = arg.option
    if o.kind in ("negatable", "switch"):
        return _truth(arg)
    if o.nargs in ("+", "*") and o.kind == "valued" and not (arg.json_path or arg.structure is not None
                                                             or arg.value_opaque or o.transform):
        words = [t.text for t in arg.value_tokens]
        if not words or any(t.opaque for t in arg.value_tokens) or o.choices is not None and any(
                w not in [c if isinstance(c, str) else str(c) for c in o.choices] for w in words):
            return _UNKNOWN
        return words  # argparse's list: only its truth and None-ness are tested
    if arg.json_path or arg.structure is not None or arg.value_opaque or not isinstance(arg.value, str) \
            or o.nargs is not None or o.transform or o.kind != "valued":
        return _UNKNOWN
    v = arg.value
    if o.choices is not None:
        word = "None" if o.optional and v in ("", "None") else v
        if word not in [c if isinstance(c, str) else str(c) for c in o.choices]:
            return _UNKNOWN  # the parser refuses the value first (VL105)
    if o.optional and v in ("", "None"):
        return None
    if o.type == "str":
        return v
    if o.type == "int":
        i = as_int(v)
        return _UNKNOWN if i is None else i
    if o.type == "float":
        f = as_float(v)
        return _UNKNOWN if f is None else f
    return _UNKNOWN


def _default_value(ctx: LintContext, dest: str) -> Any:
    opts = ctx.surface.options_by_dest.get(dest, ())
    if not opts or any(o.default_computed for o in opts) or len({repr(o.default) for o in opts}) != 1:
        return _UNKNOWN
    d = opts[0].default
    if isinstance(d, str) and opts[0].optional and d == "None":
        return _UNKNOWN
    return d if d is None or isinstance(d, (bool, int, float, str)) else _UNKNOWN


def _dest_value(ctx: LintContext, dest: str) -> tuple[Any, Any]:
    """(the value of ``args.<dest>``, the argument that gave it or None); the pseudo-dest
    ``subparser`` is "serve" under ``vllm serve`` and absent (None) under the api_server module."""
    if dest == "subparser":
        runs = ctx.surface.image_runs if ctx.launch.entry.startswith("docker:") else ctx.launch.entry
        return ("serve" if runs == "vllm serve" else None if runs == "openai.api_server" else _UNKNOWN), None
    arg = _given(ctx, dest)
    if arg is _UNKNOWN:
        return _UNKNOWN, None
    if arg is None:
        return _default_value(ctx, dest), None
    return _value(arg), arg


_ORDER_WORDS = {"<": "below", "<=": "not above", ">": "above", ">=": "not below", "==": "equal to",
                "!=": "other than"}


def _shown(v: Any) -> str:
    return "None" if v is None else str(v).lower() if isinstance(v, bool) else str(v)


def _describe(test: dict, v: Any, arg: Any, other: Any) -> Optional[str]:
    """One holding test in words, the command line's own spelling where it gives the option."""
    t = test["test"]
    if test["dest"] == "subparser":
        return "under the api_server module" if v is None else None
    name = f"`{arg.written}`" if arg is not None else f"`{test['option']}`"
    default = "" if arg is not None else " (the default)"
    if t == "set":
        return name + default.replace("the default", "on by default")
    if t in ("unset", "none"):
        return f"without {name}" if arg is None else f"{name} off" if t == "unset" else f"{name} None"
    if v is _GIVEN:
        return f"{name} given"
    if t == "not_in" and arg is not None and len(test["values"]) <= 12:
        return f"{name} {_shown(v)} (not one of {', '.join(map(str, test['values']))})"
    if t == "not_none" or t in ("in", "not_in"):
        return f"{name} {_shown(v)}{default}"
    if "dest2" in test:
        return f"{name} {_shown(v)}{default} {_ORDER_WORDS[t]} `{test['option2']}` {_shown(other)}"
    return f"{name} {_shown(v)}{default}, {_ORDER_WORDS[t]} {_shown(test['value'])}"


def _when(ctx: LintContext, c, why: Optional[str]):
    """A "when" check: every test holds (an error on the first option the line gives), one fails
    (silent) or one is not known statically (a note for --verbose)."""
    given = None
    parts: list[str] = []
    said: dict[str, str] = {}
    unknown = None
    for test in c.when:
        if "env" in test:  # the truth of an environment variable (0.32+: --grpc-port)
            from ..knowledge import launch_env  # (for these combinations only)

            entry = ctx.surface.env.get(test["env"]) or {}
            default = None if entry.get("default_computed") else entry.get("default")
            v, words = launch_env.truth(ctx.launch, test["env"], default)
            if v is None:
                unknown = unknown or words
                continue
            if bool(v) != (test["test"] == "set"):
                return None
            parts.append(words)
            continue
        v, arg = _dest_value(ctx, test["dest"])
        if v is _UNKNOWN and arg is not None and arg.option.kind == "json" and test["test"] in ("none", "not_none") \
                and not arg.value_opaque:
            v = _GIVEN  # a config object: the parser builds it from the value or its dotted keys (never None)
        other = _dest_value(ctx, test["dest2"])[0] if "dest2" in test else None
        if given is None and arg is not None:
            given = arg
        held = holds(test, v, other, _UNKNOWN)
        if held is False:
            return None
        if held is _UNKNOWN:
            unknown = unknown or test.get("option") or test["dest"]
            continue
        part = _describe(test, v, arg, other)
        if part:
            said[test["dest"]] = part  # (one part per option: its last test says the most)
    parts = list(said.values()) + parts
    if given is None:
        return None  # only what the command line sets
    if why is not None:
        ctx.skip(RULE, f"{given.written} is set, but {why}")
        return None
    if unknown is not None:
        known = "" if unknown.startswith("`") and " " in unknown else ", which is not known statically"
        ctx.skip(RULE, f"{given.written}: whether vLLM's start-up check refuses it depends on {unknown}{known}")
        return None
    where = (f"{c.cls} raises when start-up builds it" if c.cls
             else "its start-up check of the serve options raises right after parsing")
    return ctx.diag(RULE, f"vLLM {ctx.target} refuses to start with {', '.join(parts)}: {where}", given.report_span,
                    option=given.option.name)


def _builds_engine(ctx: LintContext) -> bool:
    """The launch builds vLLM's engine configuration from its options: ``vllm serve``, the OpenAI
    api_server module, or a vLLM image running either (not a wrapper that parses the line)."""
    entry = ctx.launch.entry
    runs = ctx.surface.image_runs if entry.startswith("docker:") else entry
    return runs in ("vllm serve", "openai.api_server")


def _how_to_give(ctx: LintContext, option: str) -> str:
    o = ctx.surface.lookup(option)
    if o is not None and o.kind in ("valued", "bool_value", "optional_value"):
        return f"`{option} <{o.dest.replace('_', '-').split('-')[-1]}>`"
    return f"`{option}`"


_BY_DEST: dict[int, tuple[list, dict[str, list[int]]]] = {}  # id(a release's check list) -> (it, dest -> places)


def _setting_any(checks: list, given: set) -> list:
    """The checks of a release's list (in its order) that name an option of ``given``: a "when"
    check by any of its tests' options, a pair by its first. The list is indexed by option once
    per release (it was scanned whole, every test of every check, for each launch)."""
    index = _index(checks)
    places = {k for dest in given for k in index.get(dest, ())}
    return [checks[k] for k in sorted(places)]


def _checked_dests(s) -> frozenset:
    """The options any check of the release of surface ``s`` names (``_index``'s keys of both its
    lists), once per release."""
    got = s.__dict__.get("_vl112_dests")
    if got is None:
        got = s.__dict__["_vl112_dests"] = frozenset(
            dest for checks in (s.serve_checks, s.config_checks) if checks for dest in _index(checks))
    return got


def _index(checks: list) -> dict[str, list[int]]:
    """dest -> the places in ``checks`` of the checks that name it (``_setting_any``), once per list."""
    got = _BY_DEST.get(id(checks))
    if got is None or got[0] is not checks:
        index: dict[str, list[int]] = {}
        for k, c in enumerate(checks):
            for dest in dict.fromkeys(t["dest"] for t in c.when) if c.kind == "when" else (c.a,):
                index.setdefault(dest, []).append(k)
        got = _BY_DEST[id(checks)] = (checks, index)
    return got[1]


@RULE.check
def check(ctx: LintContext):
    la = ctx.launch
    if la is None or la.style != "argv":
        return
    s = ctx.surface
    given = {a.option.dest for a in ctx.args if a.option is not None and not a.positional}
    if not ctx.notes and given.isdisjoint(_checked_dests(s)):
        return  # (a plain lint: the line sets none of the options the release's checks name, as most do)
    lists = []
    if s.serve_checks:
        if s.validates_serve_args(la.entry):
            lists.append(s.serve_checks)
        else:
            ctx.skip(RULE, f"`{la.entry}` does not run vLLM's start-up check of the serve options")
    if s.config_checks and _builds_engine(ctx):
        lists.append(s.config_checks)  # the config classes are built after the serve check
    if not lists:
        return
    # A check fires (or notes why not) only for an option the command line sets: the "when" tests'
    # first options, a pair's first; a check naming none of the line's options is passed over
    # without evaluating its tests (most launches set none of the ~30 a release holds).
    checks = [c for checks in lists for c in _setting_any(checks, given)]
    if not checks:
        return
    why = _incomplete(ctx)
    for c in checks:
        if c.kind == "when":
            d = _when(ctx, c, why)
            if d is not None:
                yield d
                return  # vLLM raises at the first check that refuses
            continue
        a, a_arg = _setting(ctx, c.a)
        if a is not True or a_arg is None:
            continue  # only an option the command line sets
        if why is not None:
            ctx.skip(RULE, f"{c.option_a} is set, but {why}")
            continue
        b, b_arg = _setting(ctx, c.b)
        if b is _UNKNOWN:
            ctx.skip(RULE, f"whether {c.option_b} is set is not known statically")
            continue
        if c.kind == "requires" and b is False:
            if b_arg is None:
                off = ""
            elif b_arg.option.kind in ("negatable", "switch"):
                off = f", which `{b_arg.written}` turns off"
            else:
                off = f", which `{b_arg.written} {b_arg.value!r}` leaves unset"
            yield ctx.diag(RULE, f"`{c.option_a}` requires `{c.option_b}`{off}: vLLM {ctx.target} refuses to start "
                                 f"without it; give {_how_to_give(ctx, c.option_b)} or drop `{c.option_a}`",
                           a_arg.report_span, option=c.option_a)
            return
        elif c.kind == "conflicts" and b is True:
            yield ctx.diag(RULE, f"`{c.option_a}` and `{c.option_b}` cannot be used together: vLLM {ctx.target} "
                                 f"refuses to start with both; drop one of them", a_arg.report_span,
                           option=c.option_a)
            return
