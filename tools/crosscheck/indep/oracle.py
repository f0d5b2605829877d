"""The oracle of the independent tester: the REAL ``vllm serve`` parser of one release, as a server.

Runs inside a release venv built by ``tools/crosscheck/run.py`` (the sdist first on ``sys.path``).
The parser comes from ``dump_parser.live_parser`` (the release's CLI ``main()`` run up to
``parse_args``, the captured top-level parser kept, so vLLM's argv preprocessing runs). Nothing
else of the first differential tester is used. No vllm_lint import here.

Protocol (JSON, one object per line): the first line written is ``{"ready": true, ...}`` or
``{"error": ..., "missing_module": ...}``. Requests on stdin:

* ``{"op": "grammar"}``: the serve parser's actions as data (option strings, nargs, const,
  choices, type callable and the callables it wraps, default, action class) and, for options that
  build a config class from JSON, that class's fields (name, kind, init, private);
* ``{"op": "parse", "argv": [...]}`` (the words after ``vllm serve``): ``{"refused": bool,
  "message": str | None, "stage": "argparse" | "exception" | "validate" | null}``; with
  ``"choices": {option string: [...]}`` the parse runs with those actions' choices replaced for
  this request only (the choices another process of the release drew, ``run.choices_vary_of``);
* ``{"op": "start", "argv": [...]}``: after a parse the parser accepted, the model-free part of
  the release's own start-up (``start_settle``): ``{"parsed": bool, "failures": [...],
  "certain": [...]}``; each failure is ``{"step", "message", "about": [dest, ...]}`` and each
  certain refusal ``{"step", "dest", "strings", "words", "message", "why"}`` (``words``: the
  option words of the line that set that dest).
"""

from __future__ import annotations

import argparse
import collections.abc
import contextlib
import copy
import dataclasses
import inspect
import re
import signal
import socket
import enum
import io
import json
import logging
import os
import sys
import textwrap
import typing
import warnings
from pathlib import Path
from typing import Any, Optional

CROSSCHECK = Path(__file__).resolve().parent.parent


def _callable_name(f: Any) -> str:
    return getattr(f, "__qualname__", None) or getattr(f, "__name__", None) or type(f).__name__


def _wrapped_callables(f: Any, depth: int = 0) -> list[str]:
    """The names of ``f`` and of the callables its closure holds (``_optional_type(int)`` -> int)."""
    if f is None or depth > 3:
        return []
    out = [_callable_name(f)]
    for cell in getattr(f, "__closure__", None) or ():
        try:
            inner = cell.cell_contents
        except ValueError:
            continue
        if callable(inner) and not isinstance(inner, type(sys)):
            out += _wrapped_callables(inner, depth + 1)
        elif isinstance(inner, type):
            out.append(_callable_name(inner))
    return out


def _scalar(v: Any) -> Any:
    if isinstance(v, enum.Enum):
        v = v.value
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return repr(v)[:80]


def _kind(tp: Any, depth: int = 0) -> dict[str, Any]:
    """A field annotation reduced to what a value generator needs."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        return _kind(args[0], depth)
    if origin is typing.Union or type(tp).__name__ == "UnionType":
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1:
            k = _kind(inner[0], depth)
            k["optional"] = True
            return k
        return {"kind": "union", "of": [_kind(a, depth + 1)["kind"] for a in inner[:4]]}
    if origin is typing.Literal:
        return {"kind": "literal", "values": [_scalar(a) for a in args]}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"kind": "literal", "values": [_scalar(m) for m in tp][:30]}
    if tp is bool:
        return {"kind": "bool"}
    if tp is int:
        return {"kind": "int"}
    if tp is float:
        return {"kind": "float"}
    if tp is str:
        return {"kind": "str"}
    if origin in (list, tuple, set) or tp in (list, tuple, set):
        return {"kind": "list"}
    if origin is dict or tp is dict:
        return {"kind": "dict"}
    cls = tp if isinstance(tp, type) else None
    if cls is not None and depth == 0 and _is_config_class(cls):
        return {"kind": "object", "fields": _fields(cls, depth + 1)}
    return {"kind": "other", "name": getattr(tp, "__name__", str(tp))[:60]}


def _is_config_class(cls: Any) -> bool:
    return dataclasses.is_dataclass(cls) or hasattr(cls, "model_fields")


def _hints(cls: Any) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except Exception:  # noqa: BLE001 - forward references that do not resolve
        return {}


def _fields(cls: Any, depth: int = 0) -> list[dict[str, Any]]:
    hints = _hints(cls)
    out = []
    if dataclasses.is_dataclass(cls):
        for f in dataclasses.fields(cls):
            tp = hints.get(f.name, f.type)
            out.append({"name": f.name, "init": bool(f.init), "private": f.name.startswith("_"),
                        **_kind(tp, depth)})
    elif hasattr(cls, "model_fields"):
        for name, info in cls.model_fields.items():
            tp = hints.get(name, getattr(info, "annotation", None))
            out.append({"name": name, "init": True, "private": name.startswith("_"), **_kind(tp, depth)})
    return out


def _config_classes() -> dict[str, Any]:
    """dest -> the config class EngineArgs builds from that option's JSON, where one does."""
    try:
        import importlib

        ea = importlib.import_module("vllm.engine.arg_utils").EngineArgs
    except Exception:  # noqa: BLE001
        return {}
    hints = _hints(ea)
    out = {}
    for f in dataclasses.fields(ea):
        tp = hints.get(f.name, f.type)
        for cand in [tp, *typing.get_args(tp)]:
            if isinstance(cand, type) and _is_config_class(cand):
                out[f.name] = cand
                break
    return out


def grammar(serve: argparse.ArgumentParser) -> dict[str, Any]:
    classes = _config_classes()
    seen: set[int] = set()
    actions = []
    for action in serve._actions:
        if id(action) in seen:
            continue
        seen.add(id(action))
        strings = sorted(s for s, a in serve._option_string_actions.items() if a is action)
        choices = None
        if action.choices is not None and not isinstance(action.choices, dict):
            try:
                choices = [_scalar(c) for c in list(action.choices)][:60]
            except TypeError:
                choices = None
        entry = {
            "strings": strings,
            "dest": action.dest,
            "nargs": action.nargs,
            "const": _scalar(action.const),
            "default": _scalar(action.default),
            "choices": choices,
            "types": _wrapped_callables(action.type),
            "action": type(action).__name__,
            "positional": not action.option_strings,
        }
        cls = classes.get(action.dest)
        if cls is not None:
            entry["config_class"] = cls.__name__
            entry["fields"] = _fields(cls)
        actions.append(entry)
    return {"actions": actions, "prefix_chars": serve.prefix_chars,
            "allow_abbrev": bool(getattr(serve, "allow_abbrev", True))}


def _error_line(text: str) -> str:
    """argparse's error message with the detail lines after it (a pydantic error is several)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for k, ln in enumerate(lines):
        if "error:" in ln:
            return " | ".join([ln[ln.index("error:") + 6:].strip(), *lines[k + 1:k + 3]])
    return " | ".join(lines[:3])


def _exception_text(e: BaseException) -> str:
    lines = [ln.strip() for ln in str(e).strip().splitlines() if ln.strip()]
    return " | ".join([f"{type(e).__name__}: {lines[0] if lines else ''}", *lines[1:3]])


@contextlib.contextmanager
def _choices_swapped(live: Any, choices: Optional[dict[str, list[Any]]]) -> Any:
    """The serve parser's actions named by ``choices`` (an option string each) with those choices,
    restored afterwards."""
    saved = []
    serve = serve_of(live)
    for string, values in (choices or {}).items():
        action = serve._option_string_actions.get(string)
        if action is not None:
            saved.append((action, action.choices))
            action.choices = list(values)
    try:
        yield
    finally:
        for action, old in saved:
            action.choices = old


def parse(live: Any, argv: list[str], choices: Optional[dict[str, list[Any]]] = None) -> dict[str, Any]:
    if choices:
        with _choices_swapped(live, choices):
            return parse(live, argv)
    full = ["serve", *argv] if live.via_serve else list(argv)
    sys.argv = ["vllm", *full]
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            ns = live.top.parse_args(list(full))
    except SystemExit as e:
        if e.code in (0, None):
            return {"refused": False, "message": None, "stage": None}
        return {"refused": True, "message": _error_line(err.getvalue())[:500] or f"exit {e.code}",
                "stage": "argparse"}
    except BaseException as e:  # noqa: BLE001 - vLLM's preprocessing raises plain exceptions
        return {"refused": True, "message": _exception_text(e)[:500], "stage": "exception"}
    if live.validate is not None:
        try:
            with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
                live.validate(ns)
        except BaseException as e:  # noqa: BLE001
            return {"refused": True, "message": _exception_text(e)[:500], "stage": "validate"}
    return {"refused": False, "message": None, "stage": None}


# --- start-up settle ------------------------------------------------------------------------

#: start-up steps that need the model (or build the whole engine): never run here
NEEDS_MODEL = ("create_model_config", "create_engine_config")


class _NoNetwork:
    """Sockets refuse to connect while a start step runs (a draft model must not be downloaded)."""

    def __enter__(self) -> None:
        def refuse(*a: Any, **k: Any) -> Any:
            raise ConnectionRefusedError("network disabled during the start-up settle")

        self.saved = (socket.socket.connect, socket.create_connection)
        socket.socket.connect = refuse  # type: ignore[method-assign]
        socket.create_connection = refuse  # type: ignore[assignment]

    def __exit__(self, *exc: Any) -> None:
        socket.socket.connect, socket.create_connection = self.saved  # type: ignore[method-assign]


def _timeout(*a: Any) -> None:
    raise TimeoutError("start step timed out")


def _parsed(live: Any, argv: list[str]) -> Any:
    """The namespace of an accepted parse (validate_parsed_serve_args included), else None."""
    full = ["serve", *argv] if live.via_serve else list(argv)
    sys.argv = ["vllm", *full]
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            ns = live.top.parse_args(list(full))
            if live.validate is not None:
                live.validate(ns)
    except BaseException:  # noqa: BLE001
        return None
    _serve_model(ns)
    return ns


def _serve_model(ns: Any) -> None:
    """What ``vllm serve``'s command does before it builds the engine where the serve parser has
    no ``--model`` (0.9.0): ``args.model = args.model_tag``; EngineArgs' own default without one."""
    if not hasattr(ns, "model") and hasattr(ns, "model_tag"):
        ns.model = ns.model_tag if ns.model_tag is not None else "facebook/opt-125m"


def _engine_args_class() -> Any:
    import importlib

    mod = importlib.import_module("vllm.engine.arg_utils")
    return getattr(mod, "AsyncEngineArgs", None) or mod.EngineArgs


def _given(serve: argparse.ArgumentParser, ns: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """dest -> option strings and value shape, for the dests whose parsed value is not the default."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import settle

    out: dict[str, dict[str, Any]] = {}
    for action in serve._actions:
        dest = action.dest
        if dest in ("help", argparse.SUPPRESS) or not hasattr(ns, dest):
            continue
        value = getattr(ns, dest)
        try:
            same = value is action.default or bool(value == action.default)
        except Exception:  # noqa: BLE001 - a config object's __eq__
            same = False
        if same:
            continue
        rec = out.setdefault(dest, {"strings": [], **settle.shape(value)})
        rec["strings"] = sorted(set(rec["strings"]) | set(action.option_strings))
    return out


def _steps(ea_cls: Any) -> list[tuple[str, Optional[str], int]]:
    """(step, the field it hands over or None, how many stand-ins it gets)."""
    fields = {f.name for f in dataclasses.fields(ea_cls)}
    out: list[tuple[str, Optional[str], int]] = [("from_cli_args", None, 0)]
    for name, fn in sorted(inspect.getmembers(ea_cls, inspect.isfunction)):
        if not re.fullmatch(r"create_\w+_config", name) or name in NEEDS_MODEL:
            continue
        params = list(inspect.signature(fn).parameters.values())[1:]
        required = [p for p in params if p.default is inspect.Parameter.empty
                    and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        field = name[len("create_"):]
        out.append((name, field if field in fields else None, len(required)))
    out += [(name, None, 0) for name in _private_steps(ea_cls)]
    return out


def _private_steps(ea_cls: Any) -> list[str]:
    """The private methods of EngineArgs that ``create_engine_config`` calls as ``self._x()``
    (no arguments, so they read only the EngineArgs: ``_resolve_device_ids`` at 0.24+,
    ``_check_feature_supported``), in source order."""
    import ast

    try:
        src = textwrap.dedent(inspect.getsource(ea_cls.create_engine_config))
        tree = ast.parse(src)
    except Exception:  # noqa: BLE001
        return []
    out: list[str] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and not n.args and not n.keywords and isinstance(n.func, ast.Attribute) \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "self" \
                and n.func.attr.startswith("_") and n.func.attr not in out:
            fn = getattr(ea_cls, n.func.attr, None)
            if inspect.isfunction(fn) and len(inspect.signature(fn).parameters) == 1:
                out.append(n.func.attr)
    return out


def _call_text(src: str, callee: str) -> str:
    """The argument text of the first ``callee(...)`` call in ``src`` (parentheses balanced)."""
    m = re.search(rf"(?<![\w.]){callee}\(", src)
    if not m:
        return ""
    depth, i = 1, m.end()
    while i < len(src) and depth:
        depth += {"(": 1, ")": -1}.get(src[i], 0)
        i += 1
    return src[m.end():i - 1]


def _hand_overs(ea_cls: Any, given: dict[str, dict[str, Any]]) -> list[tuple[str, Any]]:
    """(field, (its type, the class's pydantic config)): the given options ``create_engine_config``
    passes unchanged to a pydantic config class on every start, so that the class's validation of
    that field is the release's own check of the value alone: a call ``Class(..., field=self.field)``
    that every run of ``create_engine_config`` makes (not under an ``if``, a loop, a ``try``, a
    conditional expression, ``and`` / ``or`` or a comprehension: ``VllmConfig(...)``,
    ``ParallelConfig(...)``; ``LoRAConfig(...) if self.enable_lora else None`` is not), no method of
    EngineArgs assigns ``self.field``, EngineArgs has no ``create_<field>``, and the class has no
    before / wrap / plain validator for it and no before / wrap / plain model validator. The type is the field's
    annotation with its ``Field(...)`` constraints (``ge=1``), then the field's own ``after``
    validators where each takes the value alone (``(type, config, [validators])``)."""
    import ast
    import importlib

    try:
        src = textwrap.dedent(inspect.getsource(ea_cls.create_engine_config))
        whole = "\n".join(inspect.getsource(c) for c in ea_cls.__mro__ if c.__module__.startswith("vllm."))
        tree = ast.parse(src)
        scope = vars(importlib.import_module(ea_cls.create_engine_config.__module__))
    except Exception:  # noqa: BLE001
        return []
    own = {n for n, _ in inspect.getmembers(ea_cls, inspect.isfunction)}
    out: list[tuple[str, Any]] = []
    for call in _unconditional_calls(tree.body[0]):
        cls = scope.get(call.func.id) if isinstance(call.func, ast.Name) else None
        fields = getattr(cls, "__pydantic_fields__", None)
        deco = getattr(cls, "__pydantic_decorators__", None)
        if not fields or deco is None \
                or any(getattr(v.info, "mode", "after") != "after" for v in deco.model_validators.values()):
            continue
        checked: set[str] = set()
        before: set[str] = set()
        for v in deco.field_validators.values():
            checked |= set(getattr(v.info, "fields", ()) or ())
            if getattr(v.info, "mode", "after") != "after":
                before |= set(getattr(v.info, "fields", ()) or ())
        for kw in call.keywords:
            field, v = kw.arg, kw.value
            if field is None or field not in given or field not in fields or field in before or "*" in checked \
                    or f"create_{field}" in own or any(f == field for f, _ in out):
                continue
            if not (isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.value.id == "self"
                    and v.attr == field):
                continue
            if re.search(rf"self\.{field}\s*=(?!=)", whole):
                continue
            after = []
            if field in checked:
                # after validators of its own (ObservabilityConfig's version check, 0.12+): each
                # runs on the validated value, where it takes the value alone (a validator that
                # also reads the other fields, ``info``, is not the value's own check)
                after = [d.func for d in deco.field_validators.values() if field in (d.info.fields or ())]
                try:
                    if not all(len(inspect.signature(f).parameters) == 1 for f in after):
                        continue
                except (TypeError, ValueError):
                    continue
            info = fields[field]
            tp = typing.Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
            out.append((field, (tp, getattr(cls, "__pydantic_config__", None), after)))
    return out


#: what a call inside may not run on every run of the function
_CONDITIONAL = ("If", "For", "AsyncFor", "While", "Try", "TryStar", "With", "FunctionDef", "AsyncFunctionDef",
                "ClassDef", "Lambda", "IfExp", "BoolOp", "ListComp", "SetComp", "DictComp", "GeneratorExp", "Match")


def _unconditional_calls(fn: Any) -> list[Any]:
    """The calls every run of ``fn`` makes (its top-level statements up to a top-level ``return``,
    outside conditions, loops, ``try``, nested functions and comprehensions)."""
    import ast

    out = []
    for stmt in fn.body:
        stack = [stmt]
        while stack:
            n = stack.pop()
            if type(n).__name__ in _CONDITIONAL:
                continue
            if isinstance(n, ast.Call):
                out.append(n)
            stack.extend(ast.iter_child_nodes(n))
        if isinstance(stmt, ast.Return):
            break
    return out


def _run(fn: Any) -> Optional[BaseException]:
    old = signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(60)
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()), _NoNetwork():
            fn()
    except BaseException as e:  # noqa: BLE001
        return e
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return None


def _step_fn(step: str, ns: argparse.Namespace, stand_ins: int, tp_config: Any = None) -> Any:
    ea_cls = _engine_args_class()

    def go() -> None:
        ea = ea_cls.from_cli_args(ns)
        if step == "from_cli_args":
            return
        if step.startswith("hand_over:"):
            from pydantic import TypeAdapter

            field = step.split(":", 1)[1]
            value = getattr(ea, field)
            if value is None:
                return
            tp, config, after = tp_config
            try:
                adapter = TypeAdapter(tp, config=config)
            except Exception:  # noqa: BLE001 - a type with a config of its own takes none
                adapter = TypeAdapter(tp)
            value = adapter.validate_python(value)
            for check in after:
                try:
                    value = check(value)
                except Exception as e:  # noqa: BLE001 - said about the field, as pydantic would
                    raise ValueError(f"{field}: {type(e).__name__}: {e}") from e
            return
        getattr(ea, step)(*([None] * stand_ins))
    return go


def _failure(step: str, field: Optional[str], stand_ins: int, e: BaseException) -> dict[str, Any]:
    errors = None
    if type(e).__name__ == "ValidationError" and hasattr(e, "errors"):
        try:
            errors = [{"type": x.get("type"), "loc": [str(p) for p in x.get("loc") or ()],
                       "msg": str(x.get("msg"))[:200]} for x in e.errors()]
        except Exception:  # noqa: BLE001
            errors = None
    where = None
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None:
        where = f"{Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno}"
    return {"step": step, "field": field, "stand_ins": stand_ins, "type": type(e).__name__,
            "message": _exception_text(e)[:500], "errors": errors, "where": where}


def _words_for(live: Any, argv: list[str], dest: str, default: Any) -> list[str]:
    """The option words of ``argv`` that set ``dest``: without the word (or, when the line without
    it does not parse, the word and the one after it) the parse leaves ``dest`` at its default. vLLM's argv preprocessing rewrites some
    words (``-O.level=3`` becomes ``--optimization-level .level=3``), so the option strings of
    the action are not always what the line wrote."""
    out = []
    for i, w in enumerate(argv):
        if not w.startswith("-") or w == "-":
            continue
        for cut in (argv[:i] + argv[i + 1:], argv[:i] + argv[i + 2:]):
            ns = _parsed(live, cut)
            if ns is None:
                continue  # a value left over: try without it too
            value = getattr(ns, dest, default)
            try:
                unset = value is default or bool(value == default)
            except Exception:  # noqa: BLE001
                unset = False
            if unset:
                out.append(w)
            break
    return out


def start_settle(live: Any, serve: argparse.ArgumentParser, argv: list[str]) -> dict[str, Any]:
    """The model-free part of the release's start-up on what the parser made of ``argv``:
    ``EngineArgs.from_cli_args`` (its ``__post_init__``), each ``create_*_config`` of EngineArgs
    but the model's and the engine's (``None`` for the model configs it takes), and each given
    option create_engine_config hands to a pydantic VllmConfig as ``field=self.field`` validated
    against VllmConfig's annotation. A failure counts as certain when ``settle.about`` finds it
    about an option the line gave and the same step passes with that option at its default."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import settle

    ns = _parsed(live, argv)
    if ns is None:
        return {"parsed": False, "failures": [], "certain": []}
    given = _given(serve, ns)
    defaults = {a.dest: a.default for a in serve._actions}
    ea_cls = _engine_args_class()
    steps: list[tuple[str, Optional[str], int, Any]] = [(s, f, n, None) for s, f, n in _steps(ea_cls)]
    failures, certain = [], []
    first = _run(_step_fn("from_cli_args", copy.copy(ns), 0))
    if first is None:
        steps += [(f"hand_over:{f}", f, 0, tp) for f, tp in _hand_overs(ea_cls, given)]
    else:
        steps = steps[:1]  # the later steps start from the EngineArgs that could not be made
    for step, field, n, tp in steps:
        e = first if step == "from_cli_args" else _run(_step_fn(step, _parsed(live, argv), n, tp))
        if e is None:
            continue
        rec = _failure(step, field, n, e)
        rec["about"] = [d for d, _ in settle.about(rec, given)]
        failures.append(rec)
        for dest, why in settle.about(rec, given):
            ns2 = _parsed(live, argv)
            setattr(ns2, dest, defaults.get(dest))
            if _run(_step_fn(step, ns2, n, tp)) is None:
                certain.append({"step": step, "dest": dest, "strings": given[dest]["strings"],
                                "words": _words_for(live, argv, dest, defaults.get(dest)),
                                "message": rec["message"], "why": why})
    return {"parsed": True, "failures": failures, "certain": certain}


def serve_of(live: Any) -> argparse.ArgumentParser:
    if not live.via_serve:
        return live.top
    for action in live.top._actions:
        if isinstance(action, argparse._SubParsersAction) and "serve" in action.choices:
            return action.choices["serve"]
    return live.top


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--stub", action="append", default=[])
    ns = ap.parse_args()
    out = sys.stdout
    sys.stdout = io.StringIO()  # vLLM prints at import: keep the protocol channel clean
    sys.path.insert(0, str(CROSSCHECK))
    import dump_parser  # noqa: E402

    try:
        live = dump_parser.live_parser(ns.src, ns.stub)
    except ModuleNotFoundError as e:
        out.write(json.dumps({"error": str(e), "missing_module": e.name}) + "\n")
        return 3
    except BaseException as e:  # noqa: BLE001
        out.write(json.dumps({"error": f"{type(e).__name__}: {e}"[:500]}) + "\n")
        return 1
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    out.write(json.dumps({"ready": True, "entry": live.entry, "via_serve": live.via_serve}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            if req["op"] == "grammar":
                rec = grammar(serve_of(live))
            elif req["op"] == "start":
                rec = start_settle(live, serve_of(live), req["argv"])
            else:
                rec = parse(live, req["argv"], req.get("choices"))
        except BaseException as e:  # noqa: BLE001 - never lose the protocol
            rec = {"refused": True, "message": f"oracle: {type(e).__name__}: {e}"[:300], "stage": "oracle"}
        out.write(json.dumps(rec, default=str) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
