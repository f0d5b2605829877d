"""The parallel layout and the other settings the anti-pattern rules read, with the target release's
semantics: argv options resolved by the parser (aliases ``-tp``/``-pp``/``-dp``, ``--opt=value``,
negations), ``LLM(...)`` keyword arguments through their EngineArgs field names, config-file keys,
JSON options given whole (``--eplb-config '{...}'``) or by dotted key (``--eplb-config.use_async``).

Later occurrences win, as with argparse. A value that is opaque (``$TP``) makes the setting unknown
(``Value.known`` false): rules then stay silent about it. ``Layout.hidden`` says the launch may carry
options we cannot see (``$EXTRA_ARGS``), so rules must not rely on an option being absent.
"""

from __future__ import annotations

import os

from ..record import lazy_json as json  # (json.loads without the json package: record.json_loads)
from ..fsutil import real_dir
from ..launch import EnvAssign
from ..record import Record, lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

# option strings that older/other releases may not resolve, mapped to their EngineArgs field
_ALIASES = {
    "-tp": "tensor_parallel_size", "-pp": "pipeline_parallel_size", "-dp": "data_parallel_size",
    "-dpl": "data_parallel_size_local", "-dcp": "decode_context_parallel_size", "-ep": "enable_expert_parallel",
}

_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f", ""}


class Value(Record):
    """One setting: its value (None when absent or opaque), the argument that gave it
    (``argv.ParsedArg``, or None when absent: the default), whether its value is known, and the
    environment variable it came from, if any."""

    __slots__ = ("value", "arg", "known", "env")

    def __init__(self, value: Any = None, arg: Any = None, known: bool = True,
                 env: Optional[EnvAssign] = None) -> None:
        self.value = value
        self.arg = arg
        self.known = known
        self.env = env

    @property
    def present(self) -> bool:
        return self.arg is not None or self.env is not None

    @property
    def count(self) -> Optional[int]:
        """The value when it is known and a whole number (a parallel size, a node count), else None."""
        return self.value if self.known and isinstance(self.value, int) else None

    @property
    def span(self):
        if self.arg is not None:
            return self.arg.report_span
        if self.env is not None:
            return self.env.name_span or self.env.value_span
        return None


def dest_of(arg) -> Optional[str]:
    if arg.positional:
        return None if arg.how == "stray" else "model"
    if arg.option is not None:
        return arg.option.dest
    c = arg.canonical
    if c in _ALIASES:
        return _ALIASES[c]
    base = c.partition(".")[0]
    return base.lstrip("-").replace("-", "_") if base else None


def _is_negation(arg) -> bool:
    return arg.option is not None and arg.written in (arg.option.negations or []) or \
        (arg.option is None and arg.canonical.startswith("--no-"))


def as_bool(v: Any) -> Optional[bool]:
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return bool(v)
    if isinstance(v, str):
        s = v.strip().lower()
        if s in _TRUE:
            return True
        if s in _FALSE:
            return False
    return None


def as_int(v: Any) -> Optional[int]:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, str):
        try:
            return int(v.strip())
        except ValueError:
            return None
    return None


def as_float(v: Any) -> Optional[float]:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip())
        except ValueError:
            return None
    return None


def as_json(v: Any) -> Optional[dict]:
    if isinstance(v, dict):
        return v
    if isinstance(v, str):
        try:
            d = json.loads(v)
        except ValueError:
            return None
        return d if isinstance(d, dict) else None
    return None


def _set_path(d: dict, path: str, value: Any) -> None:
    parts = path.split(".")
    for p in parts[:-1]:
        nxt = d.get(p)
        if not isinstance(nxt, dict):
            nxt = d[p] = {}
        d = nxt
    d[parts[-1].rstrip("+")] = value


# the settings a launch does not give, one object each for every layout (a value is replaced,
# never changed: ~16 fewer objects per launch)
_ABSENT = Value()
_ONE = Value(1)
_OFF = Value(False)


class Layout(Record):
    """``all2all``: an explicit backend (option or env); ``eplb_config``: merged JSON + dotted keys
    (+ old flat options); ``async_scheduling``: value None = not given; ``speculative``: a dict;
    ``hidden``: the launch may hold options we cannot see; ``by_dest``: dest -> last ParsedArg."""

    __slots__ = ("model", "revision", "tp", "pp", "dp", "dp_local", "dcp", "ep", "all2all", "eplb", "eplb_config",
                 "eplb_config_known", "eplb_args", "async_scheduling", "speculative", "gmu", "max_model_len",
                 "nnodes", "executor", "hidden", "by_dest")

    def __init__(self, model: Optional[Value] = None, revision: Optional[Value] = None, tp: Optional[Value] = None,
                 pp: Optional[Value] = None, dp: Optional[Value] = None, dp_local: Optional[Value] = None,
                 dcp: Optional[Value] = None, ep: Optional[Value] = None, all2all: Optional[Value] = None,
                 eplb: Optional[Value] = None, eplb_config: Optional[dict] = None, eplb_config_known: bool = True,
                 eplb_args: Optional[list] = None, async_scheduling: Optional[Value] = None,
                 speculative: Optional[Value] = None, gmu: Optional[Value] = None,
                 max_model_len: Optional[Value] = None, nnodes: Optional[Value] = None,
                 executor: Optional[Value] = None, hidden: bool = False, by_dest: Optional[dict] = None) -> None:
        self.model = _ABSENT if model is None else model
        self.revision = _ABSENT if revision is None else revision
        self.tp = _ONE if tp is None else tp
        self.pp = _ONE if pp is None else pp
        self.dp = _ONE if dp is None else dp
        self.dp_local = _ABSENT if dp_local is None else dp_local
        self.dcp = _ONE if dcp is None else dcp
        self.ep = _OFF if ep is None else ep
        self.all2all = _ABSENT if all2all is None else all2all
        self.eplb = _OFF if eplb is None else eplb
        self.eplb_config = {} if eplb_config is None else eplb_config
        self.eplb_config_known = eplb_config_known
        self.eplb_args = [] if eplb_args is None else eplb_args
        self.async_scheduling = _ABSENT if async_scheduling is None else async_scheduling
        self.speculative = _ABSENT if speculative is None else speculative
        self.gmu = _ABSENT if gmu is None else gmu
        self.max_model_len = _ABSENT if max_model_len is None else max_model_len
        self.nnodes = _ABSENT if nnodes is None else nnodes
        self.executor = _ABSENT if executor is None else executor
        self.hidden = hidden
        self.by_dest = {} if by_dest is None else by_dest

    @property
    def dp_spans_nodes(self) -> bool:
        """Data parallelism larger than its local part: the launch is one node of several."""
        return (self.dp_local.value is not None and isinstance(self.dp.value, int)
                and self.dp_local.value < self.dp.value)

    def gpus_per_launch(self) -> Optional[int]:
        """GPUs this launch drives: tp x pp x (local) dp; None if any factor is unknown."""
        if not (self.tp.known and self.pp.known and self.dp.known and self.dp_local.known):
            return None
        dp = self.dp_local.value if self.dp_local.value is not None else self.dp.value
        if not all(isinstance(x, int) for x in (self.tp.value, self.pp.value, dp)):
            return None
        return self.tp.value * self.pp.value * dp


def env_lookup(ctx, name: str, *, file_wide: bool = True) -> Optional[EnvAssign]:
    """The last assignment of ``name`` in the launch's environment (and, with ``file_wide``, the
    file's loose environment)."""
    last = ctx.memo.env_last
    if last is None:  # built once per context: the rules look up about six names per launch
        ex = ctx.extraction
        last = ctx.memo.env_last = ({e.name: e for e in ctx.env},
                                    {e.name: e for e in getattr(ex, "env", []) or []})
    found = last[0].get(name)
    if found is None and file_wide:
        found = last[1].get(name)
    return found


def _value(arg, kind: str) -> Value:
    if arg.value_opaque:
        return Value(None, arg, known=False)
    v = arg.value
    if kind == "bool":
        if _is_negation(arg):
            return Value(False, arg)
        if v is None:
            return Value(True, arg)
        b = as_bool(v)
        return Value(b, arg, known=b is not None)
    if v is None:
        return Value(None, arg, known=False)
    if kind == "int":
        i = as_int(v)
        return Value(i, arg, known=i is not None)
    if kind == "float":
        f = as_float(v)
        return Value(f, arg, known=f is not None)
    if kind == "json":
        d = as_json(v)
        return Value(d, arg, known=d is not None)
    return Value(v if isinstance(v, str) else str(v), arg)


_KINDS = {
    "tensor_parallel_size": ("tp", "int"), "pipeline_parallel_size": ("pp", "int"),
    "data_parallel_size": ("dp", "int"), "data_parallel_size_local": ("dp_local", "int"),
    "decode_context_parallel_size": ("dcp", "int"), "enable_expert_parallel": ("ep", "bool"),
    "all2all_backend": ("all2all", "str"), "enable_eplb": ("eplb", "bool"),
    "async_scheduling": ("async_scheduling", "bool"), "speculative_config": ("speculative", "json"),
    "gpu_memory_utilization": ("gmu", "float"), "max_model_len": ("max_model_len", "str"),
    "model": ("model", "str"), "revision": ("revision", "str"), "nnodes": ("nnodes", "int"),
    "distributed_executor_backend": ("executor", "str"),
}

# eplb settings that were flat options before --eplb-config (0.10.x-0.11.x)
_EPLB_FLAT = {"num_redundant_experts": "num_redundant_experts", "eplb_window_size": "window_size",
              "eplb_step_interval": "step_interval", "eplb_log_balancedness": "log_balancedness"}


def layout(ctx) -> Layout:
    cached = ctx.memo.layout
    if cached is not None:
        return cached
    lay = Layout()
    lay.hidden = bool(ctx.launch is not None and ctx.launch.opaque)
    # options read from `--config FILE` are not among these words (the file is linted on its own):
    # the launch may set what it does not show here
    lay.hidden = lay.hidden or any(dest_of(a) == "config" and not a.positional for a in ctx.args)
    for arg in ctx.args:
        dest = dest_of(arg)
        if dest is None:
            continue
        if arg.positional and dest == "model":
            lay.model = Value(None, arg, known=False) if arg.value_opaque else Value(arg.value, arg)
            lay.by_dest["model"] = arg
            continue
        if dest == "served_model_name":
            continue  # never the model
        lay.by_dest[dest] = arg
        if dest == "eplb_config":
            lay.eplb_args.append(arg)
            if arg.value_opaque:
                lay.eplb_config_known = False
                continue
            if arg.json_path:
                v = arg.value
                if isinstance(v, str):
                    try:
                        v = json.loads(v)
                    except ValueError:
                        pass
                _set_path(lay.eplb_config, arg.json_path, v)
            else:
                d = as_json(arg.value)
                if d is None:
                    lay.eplb_config_known = False
                else:
                    lay.eplb_config.update(d)
            continue
        if dest in _EPLB_FLAT:
            lay.eplb_args.append(arg)
            if not arg.value_opaque:
                lay.eplb_config[_EPLB_FLAT[dest]] = arg.value
            continue
        if dest == "speculative_config" and arg.json_path:
            cur = lay.speculative.value if isinstance(lay.speculative.value, dict) else {}
            cur = dict(cur)
            _set_path(cur, arg.json_path, arg.value)
            lay.speculative = Value(cur, arg, known=lay.speculative.known and not arg.value_opaque)
            continue
        if dest in ("speculative_model", "num_speculative_tokens"):  # pre-0.9 flat options
            cur = dict(lay.speculative.value) if isinstance(lay.speculative.value, dict) else {}
            cur["model" if dest == "speculative_model" else dest] = arg.value
            lay.speculative = Value(cur, arg, known=not arg.value_opaque)
            continue
        kind = _KINDS.get(dest)
        if kind is None or arg.json_path:
            continue
        attr, k = kind
        if attr == "model":
            lay.model = _value(arg, "str")
            continue
        setattr(lay, attr, _value(arg, k))
    # the all-to-all backend: the option, else VLLM_ALL2ALL_BACKEND (older releases read the env)
    if not lay.all2all.present:
        e = env_lookup(ctx, "VLLM_ALL2ALL_BACKEND")
        if e is not None:
            lay.all2all = Value(None if e.value_opaque else e.value, None, known=not e.value_opaque, env=e)
    ctx.memo.layout = lay
    return lay


_BASE_DIRS: dict = {}
_REAL_DIRS: dict = {}  # directory -> its real path (fsutil.real_dir)
_FILE_DIRS: dict = {}  # linted file -> _file_dir(file)


def _base_dir(path: str):
    """The real directory of a linted file, where a relative local model path is looked for."""
    from pathlib import Path

    d = _BASE_DIRS.get(path)
    if d is None:
        real = os.path.dirname(os.path.realpath(path)) if os.path.islink(path) else real_dir(os.path.dirname(path), _REAL_DIRS)
        d = _BASE_DIRS[path] = Path(real)
    return d


def _file_dir(path: str):
    """(directory, real_base) for ``models.resolve``: a file's directory as written (the kernel
    resolves it as ``realpath`` would) and how to get its real path, asked only when a config.json
    is found there (resolving every file's directory cost ~15 us a launch, an lstat per new
    directory). A linked file's directory is not its link's: then its real directory at once.
    Once per file: several rules ask for every launch."""
    got = _FILE_DIRS.get(path)
    if got is None:
        if os.path.islink(path):
            got = (_base_dir(path), None)
        else:
            got = (os.path.dirname(path) or ".", lambda: _base_dir(path))
        _FILE_DIRS[path] = got
    return got


def model_facts(ctx, rule=None):
    """(facts, why) for the launch's model; records a --verbose skip reason for ``rule`` when the
    model is unknown."""
    lay = layout(ctx)
    if ctx.launch is None:
        return None, "no launch"
    if ctx.memo.model is None:  # (seven rules ask; the lookup and its inputs are the same for each)
        name = lay.model.value
        if not lay.model.known:
            why = "the model is not known statically"
        elif not name:
            ctxm = ctx.launch.model if ctx.launch else None
            name = ctxm if isinstance(ctxm, str) else None
            why = "the launch names no model" if not name else ""
        else:
            why = ""
        facts = None
        if name:
            from . import models  # (once per launch: the other rules' asks are answered by the memo)

            base, real_base = _file_dir(ctx.path) if ctx.path else (None, None)
            rev = lay.revision.value if lay.revision.known and isinstance(lay.revision.value, str) else None
            facts, why = models.resolve(name, revision=rev, online=bool(getattr(ctx.settings, "online", False)),
                                        base_dir=base, real_base=real_base)
        ctx.memo.model = (facts, why, name)
    facts, why, name = ctx.memo.model
    if facts is None and rule is not None:
        ctx.skip(rule, why)
    if name and not ctx.memo.model_noted and ctx.notes:
        # which row and name rule, or which config.json (a local directory, the cache, the hub); an
        # unknown model is named too, once, whichever rules asked
        ctx.memo.model_noted = True
        ctx.skipped.append(f"model `{name}`: {facts.matched_by or 'facts from the ' + facts.source}"
                           if facts is not None else f"model `{name}`: not identified ({why})")
    return facts, why


def fmt_ratio(x: float) -> str:
    return f"{x * 100:.2f}%".replace(".00%", "%")


_HUMAN = lazy_re(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)\s*$")


def human_int(v: Any) -> Optional[int]:
    """vLLM's ``human_readable_int``: ``32k`` = 32000, ``32K`` = 32768 (decimal lower case, binary
    upper case), plain integers as is; None for ``auto``/``-1`` or anything unreadable."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if v > 0 else None
    if not isinstance(v, str):
        return None
    m = _HUMAN.match(v)
    if not m:
        return None
    num, suffix = float(m.group(1)), m.group(2)
    if suffix:
        dec = {"k": 10**3, "m": 10**6, "g": 10**9}
        binary = {"K": 2**10, "M": 2**20, "G": 2**30}
        mult = dec.get(suffix) or binary.get(suffix)
        if mult is None:
            return None
        if suffix.isupper() and not num.is_integer():
            return None  # vLLM rejects fractional binary multipliers
        return int(num * mult)
    return int(num) if num.is_integer() and num > 0 else None
