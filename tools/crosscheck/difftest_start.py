"""Start-up refusals of a parsed command line that are certain without a model (difftest worker).

Runs INSIDE a release venv, next to ``difftest_worker.py``. ``vllm serve`` builds its engine
configuration right after parsing (``EngineArgs.create_engine_config``, which first reads the
model). Part of that construction needs no model, and what it refuses it refuses whatever the
model is. ``StartCheck.check(ns)`` runs those parts of the release's own code on the namespace the
real parser produced and returns ``{"option": dest, "key": key | None, "step": ..., "error":
first line, "also": other dests, "options": their option strings}`` for the first certain
refusal, or None:

* ``validate_parsed_serve_args`` (the CLI's own checks before the engine starts), where the
  release has it;
* ``engine_args``: ``AsyncEngineArgs.from_cli_args`` (the EngineArgs dataclass and its
  ``__post_init__``);
* the release's model-free construction helpers that ``create_engine_config`` calls, where the
  release has them (``NO_MODEL_STEPS``: the load, diffusion, watermark, structured-outputs,
  observability and logging configs, ``--device-ids``);
* ``speculative_config``: the release's ``create_speculative_config`` with no target model; only
  what the config class refuses about a key the command line gave counts (an unknown key, a value
  of the wrong type), or a value that is not a JSON object; errors of its ``__post_init__``, which
  needs the target model, do not;
* ``fields``: values ``create_engine_config`` hands unchanged (``Config(x=self.x)``, read from
  the release's source) to a pydantic config class, validated against that class's field
  (``-O.level=3`` at 0.12+ is refused by ``VllmConfig.optimization_level``).

Strictness: for the first three, an error counts only when the same step succeeds on the namespace
with the blamed option reset to its default ("the same line without the option"; the option is the
one whose reset clears it). Errors that depend on the machine rather than on the line (a file or
package that is missing here, ``OSError``) never count, nor do device ids that may be GPU UUIDs.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import inspect
import io
import re
import textwrap
from typing import Any, Optional

#: EngineArgs methods ``create_engine_config`` calls that read no model (where a release has them)
NO_MODEL_STEPS = ("create_load_config", "create_diffusion_config", "create_watermark_config",
                  "create_structured_outputs_config", "create_observability_config",
                  "create_logging_config", "_resolve_device_ids")

#: messages of refusals that depend on this machine, not on the command line
_MACHINE = re.compile(r"exist|no such file|not found|install|not available|import|permission", re.I)
_UNEXPECTED_KW = re.compile(r"unexpected keyword argument '([^']+)'")


def _first_line(e: BaseException) -> str:
    msg = str(e).strip()
    return f"{type(e).__name__}: {msg.splitlines()[0] if msg else ''}"[:300]


def _quiet(step: Any) -> Optional[BaseException]:
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            step()
    except BaseException as e:  # noqa: BLE001 - any refusal of vLLM's is a result here
        return e
    return None


def _machine_dependent(e: BaseException) -> bool:
    return isinstance(e, (OSError, ImportError)) or bool(_MACHINE.search(str(e)))


class StartCheck:
    def __init__(self, top: Any, via_serve: bool, validate: Any = None) -> None:
        import importlib

        self.validate = validate
        self.au = importlib.import_module("vllm.engine.arg_utils")
        self.cls = self.au.AsyncEngineArgs
        called = self._called_on_every_start()
        self.steps = [s for s in NO_MODEL_STEPS if callable(getattr(self.au.EngineArgs, s, None)) and s in called]
        self.speculative = "create_speculative_config" in called
        bare = ["serve", "m"] if via_serve else ["--model", "m"]
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            self.defaults = vars(top.parse_args(bare))
        self.fields = self._pass_through_fields()
        self.dest_options = _dest_options(top)
        self._short_spellings(top, bare)

    def _short_spellings(self, top: Any, bare: list[str]) -> None:
        """Spellings vLLM's argv preprocessing rewrites before argparse sees them (``-O3`` becomes
        ``--compilation-config 3`` or, from 0.12, ``--optimization-level 3``): the dest they set
        is found by parsing them once."""
        for word in ("-O1",):
            try:
                with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
                    got = vars(top.parse_args([*bare, word]))
            except BaseException:  # noqa: BLE001 - a release without the spelling
                continue
            for dest, v in got.items():
                if dest in self.defaults and not _same(v, self.defaults[dest]):
                    self.dest_options.setdefault(dest, []).append(word[:2])

    def describe(self) -> dict[str, Any]:
        return {"steps": self.steps, "speculative": self.speculative, "fields": sorted(self.fields)}

    # ------------------------------------------------------------------------------------------

    def check(self, ns: Any) -> Optional[dict[str, Any]]:
        found = self._check(ns)
        if found:
            found["options"] = [s for d in [found["option"], *found.get("also", [])]
                                for s in self.dest_options.get(d, [])]
        return found

    def _check(self, ns: Any) -> Optional[dict[str, Any]]:
        given = [d for d, v in vars(ns).items()
                 if d in self.defaults and d != "model" and not _same(v, self.defaults[d])]
        if not given:
            return None
        if self.validate is not None:
            e = _quiet(lambda: self.validate(_copy(ns)))
            if e is not None and _machine_dependent(e):
                ns, given, e = self._set_aside(ns, given, e)
            if e is not None:
                found = self._attributed("validate_parsed_serve_args", e, ns, given,
                                         lambda n: self.validate(_copy(n)))
                if found:
                    return found
        e = _quiet(lambda: self._fresh(ns))
        if e is not None:
            return self._attributed("engine_args", e, ns, given, lambda n: self._fresh(n))
        for step in self.steps:
            e = _quiet(lambda s=step: getattr(self._fresh(ns), s)())
            if e is not None:
                if step == "_resolve_device_ids" and _may_be_uuid(getattr(ns, "device_ids", None)):
                    continue
                found = self._attributed(step, e, ns, given,
                                         lambda n, s=step: getattr(self._fresh(n), s)())
                if found:
                    return found
        if self.speculative and "speculative_config" in given:
            found = self._speculative(ns)
            if found:
                return found
        for dest in given:
            if dest in self.fields:
                found = self._field(dest, getattr(self._fresh(ns), dest, None))
                if found:
                    return found
        return None

    def _fresh(self, ns: Any) -> Any:
        """EngineArgs of a copy of ``ns``: the steps mutate what they are given."""
        return self.cls.from_cli_args(_copy(ns))

    def _set_aside(self, ns: Any, given: list[str], e: BaseException) -> tuple[Any, list[str], Any]:
        """The validator stopped at something of this machine (a ``--chat-template`` file that is
        missing here): the namespace with the options whose reset clears that refusal reset, the
        other given options, and what the validator says then. Where the file exists the
        validator runs on to its later checks, and where it does not it refuses anyway, so a
        refusal of those checks is certain either way (a second machine refusal is left as is)."""
        alt = copy.copy(ns)
        aside = []
        for dest in given:
            trial = copy.copy(alt)
            setattr(trial, dest, copy.deepcopy(self.defaults[dest]))
            e2 = _quiet(lambda: self.validate(_copy(trial)))
            if e2 is None or str(e2) != str(e):
                alt, aside = trial, aside + [dest]
                break
        if not aside:
            return ns, given, e
        e2 = _quiet(lambda: self.validate(_copy(alt)))
        return alt, [d for d in given if d not in aside], e2

    def _attributed(self, step: str, e: BaseException, ns: Any, given: list[str],
                    run: Any) -> Optional[dict[str, Any]]:
        """The options whose reset to their default makes ``run`` succeed (the first is the
        ``option``; more than one where the refusal is about a combination), or None."""
        if _machine_dependent(e):
            return None
        culprits = []
        for dest in given:
            alt = copy.copy(ns)
            setattr(alt, dest, copy.deepcopy(self.defaults[dest]))
            if _quiet(lambda: run(alt)) is None:
                culprits.append(dest)
        if not culprits:
            culprits = self._chained(e, ns, given, run)
        if not culprits:
            return None
        return {"option": culprits[0], "also": culprits[1:], "key": _key_of(e, getattr(ns, culprits[0], None)),
                "step": step, "error": _first_line(e)}

    def _chained(self, e: BaseException, ns: Any, given: list[str], run: Any) -> list[str]:
        """Two refusals of one step (`--enable-auto-tool-choice --enable-reasoning` without
        parsers at 0.7.3): no single reset clears the step, but resetting the first culprit turns
        its error into another one. Reset such options one after another; the refusal is about
        them when the step then succeeds (and no error met on the way is the machine's)."""
        chain, current, err = [], ns, e
        while True:
            step_to = None
            for dest in given:
                if dest in chain:
                    continue
                alt = copy.copy(current)
                setattr(alt, dest, copy.deepcopy(self.defaults[dest]))
                e2 = _quiet(lambda: run(alt))
                if e2 is None:
                    return chain + [dest]
                if str(e2) != str(err) and not _machine_dependent(e2):
                    step_to = (dest, alt, e2)
                    break
            if step_to is None:
                return []
            chain.append(step_to[0])
            current, err = step_to[1], step_to[2]

    def _speculative(self, ns: Any) -> Optional[dict[str, Any]]:
        value = ns.speculative_config
        ea = self._fresh(ns)
        if isinstance(value, str) and "literal_eval" in _source(ea.create_speculative_config):
            # 0.8.2: the parser keeps the string (nullable_str) and create_speculative_config
            # reads it with ast.literal_eval, so `{"method": "ngram", ...}` is an object there
            # (and JSON's true / false / null are not Python literals)
            try:
                value = ast.literal_eval(value)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as e:
                return {"option": "speculative_config", "key": None, "step": "speculative_config",
                        "error": f"not a Python literal: {type(e).__name__}: {_first_line(e)}"}
        if not isinstance(value, dict):
            return {"option": "speculative_config", "key": None, "step": "speculative_config",
                    "error": f"not a JSON object: {type(value).__name__}"}
        params = [p for p in inspect.signature(ea.create_speculative_config).parameters.values()
                  if p.default is inspect.Parameter.empty]
        e = _quiet(lambda: ea.create_speculative_config(*[None] * len(params)))
        if e is None:
            return None
        key = _key_of(e, value)
        if key is None:
            return None
        return {"option": "speculative_config", "key": key, "step": "speculative_config",
                "error": _first_line(e)}

    # ------------------------------------------------------------------------------------------

    def _engine_args_source(self) -> Optional[ast.ClassDef]:
        try:
            node = ast.parse(textwrap.dedent(inspect.getsource(self.au.EngineArgs))).body[0]
        except (OSError, TypeError, SyntaxError, IndexError):
            return None
        return node if isinstance(node, ast.ClassDef) else None

    def _engine_config_source(self) -> Optional[ast.FunctionDef]:
        cls_node = self._engine_args_source()
        for fn in cls_node.body if cls_node else []:
            if isinstance(fn, ast.FunctionDef) and fn.name == "create_engine_config":
                return fn
        return None

    def _called_on_every_start(self) -> set[str]:
        """The EngineArgs methods ``create_engine_config`` calls unconditionally (``self.x()``)."""
        fn = self._engine_config_source()
        if fn is None:
            return set()
        return {c.func.attr for c in _unconditional_calls(fn) if isinstance(c.func, ast.Attribute)
                and isinstance(c.func.value, ast.Name) and c.func.value.id == "self"}

    def _pass_through_fields(self) -> dict[str, Any]:
        """{EngineArgs attribute: (name, validator)} for the ``Config(x=self.x)`` keywords of the
        calls ``create_engine_config`` makes on every start, where ``Config`` is a pydantic
        dataclass with no validator that could change the value first (no field validator of
        ``x``, no ``before`` model validator) and no EngineArgs method reassigns ``self.x``."""
        try:
            from typing import Annotated

            from pydantic import TypeAdapter
        except ImportError:
            return {}
        cls_node = self._engine_args_source()
        if cls_node is None:
            return {}
        assigned: set[str] = set()
        for fn in cls_node.body:
            if isinstance(fn, ast.FunctionDef) and fn.name not in ("__init__", "__post_init__"):
                for n in ast.walk(fn):
                    targets = n.targets if isinstance(n, ast.Assign) else \
                        [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign)) else []
                    for t in targets:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            assigned.add(t.attr)
        out: dict[str, Any] = {}
        engine_config = self._engine_config_source()
        if engine_config is None:
            return {}
        for n in _unconditional_calls(engine_config):
            if not isinstance(n.func, ast.Name):
                continue
            target = getattr(self.au, n.func.id, None)
            fields = getattr(target, "__pydantic_fields__", None)
            decorators = getattr(target, "__pydantic_decorators__", None)
            if not fields or decorators is None:
                continue
            if any(d.info.mode != "after" for d in decorators.model_validators.values()):
                continue
            validated = {f for d in decorators.field_validators.values() for f in d.info.fields}
            before = {f for d in decorators.field_validators.values() if d.info.mode != "after"
                      for f in d.info.fields}
            for kw in n.keywords:
                v = kw.value
                if not (isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name)
                        and v.value.id == "self" and v.attr == kw.arg):
                    continue
                if kw.arg in assigned or kw.arg not in fields:
                    continue
                after = []
                if kw.arg in validated:
                    # only after validators of its own (ObservabilityConfig's version check,
                    # 0.12+), each taking the value alone (not the other fields): they run on
                    # the validated value
                    if kw.arg in before or "*" in validated:
                        continue
                    after = [d.func for d in decorators.field_validators.values() if kw.arg in d.info.fields]
                    try:
                        if not all(len(inspect.signature(f).parameters) == 1 for f in after):
                            continue
                    except (TypeError, ValueError):
                        continue
                info = fields[kw.arg]
                try:
                    config = getattr(target, "__pydantic_config__", None) or {}
                    typ = Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation
                    adapter = TypeAdapter(typ,
                                          config={"arbitrary_types_allowed": True,
                                                  **{k: v for k, v in config.items()
                                                     if k in ("arbitrary_types_allowed", "strict")}})
                except Exception:  # noqa: BLE001 - a field we cannot validate alone is skipped
                    continue
                out[kw.arg] = (f"{n.func.id}.{kw.arg}", _AfterValidated(adapter, after) if after else adapter)
        return out

    def _field(self, dest: str, value: Any) -> Optional[dict[str, Any]]:
        name, adapter = self.fields[dest]
        e = _quiet(lambda: adapter.validate_python(value))
        if e is None or _machine_dependent(e):
            return None
        return {"option": dest, "key": None, "step": name, "error": _first_line(e)}


class _AfterValidated:
    """A field's type, then its own ``after`` validators on the validated value (``validate_python``
    like a ``TypeAdapter``)."""

    def __init__(self, adapter: Any, after: list[Any]) -> None:
        self.adapter, self.after = adapter, after

    def validate_python(self, value: Any) -> Any:
        value = self.adapter.validate_python(value)
        for check in self.after:
            value = check(value)
        return value


#: statements and expressions a call may sit in and still run on every start-up
_PLAIN = (ast.Assign, ast.AnnAssign, ast.Expr, ast.Return, ast.Call, ast.keyword, ast.Starred)


def _unconditional_calls(fn: ast.FunctionDef) -> list[ast.Call]:
    """The calls of ``fn`` that run whenever it runs: at the top level of its body, or as
    arguments of such calls (``VllmConfig(lora_config=LoRAConfig(...))``); nothing under an
    ``if``, a conditional expression, ``and``/``or``, a loop, ``try``, ``with`` or a lambda
    (``LoRAConfig(...) if self.enable_lora else None`` validates nothing without the switch)."""
    out: list[ast.Call] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Call):
            out.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _PLAIN):
                visit(child)

    for stmt in fn.body:
        if isinstance(stmt, _PLAIN):
            visit(stmt)
    return out


def _source(fn: Any) -> str:
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return ""


def _key_of(e: BaseException, value: Any) -> Optional[str]:
    """The key of a dict-valued option an error is about: the first location of a pydantic error
    (other than a missing field) that is a key of ``value``, or the key a plain dataclass called
    an unexpected keyword; None otherwise."""
    if not isinstance(value, dict):
        return None
    keys = set(value) | {k.replace("-", "_") for k in value if isinstance(k, str)}
    errors = getattr(e, "errors", None)
    if callable(errors):
        try:
            for err in errors():
                loc = err.get("loc") or ()
                if loc and loc[0] in keys and err.get("type") != "missing":
                    return str(loc[0])
        except Exception:  # noqa: BLE001 - an ``errors`` that is not pydantic's
            return None
        return None
    if isinstance(e, TypeError):
        m = _UNEXPECTED_KW.search(str(e))
        if m and m.group(1) in keys:
            return m.group(1)
    return None


def _dest_options(top: Any) -> dict[str, list[str]]:
    """{dest: option strings} of the serve parser (``top`` or its ``serve`` sub-parser)."""
    import argparse

    parser = top
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction) and "serve" in action.choices:
            parser = action.choices["serve"]
    out: dict[str, list[str]] = {}
    for action in parser._actions:
        if action.option_strings:
            out.setdefault(action.dest, []).extend(action.option_strings)
    return out


def _copy(ns: Any) -> Any:
    try:
        return copy.deepcopy(ns)
    except Exception:  # noqa: BLE001 - a value that cannot be copied is shared
        return copy.copy(ns)


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - objects without a usable ==
        return a is b


def _may_be_uuid(ids: Any) -> bool:
    return isinstance(ids, list) and any(isinstance(i, str) and i.upper().startswith(("GPU-", "MIG-"))
                                         for i in ids)
