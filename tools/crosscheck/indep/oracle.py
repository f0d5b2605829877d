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
  "message": str | None, "stage": "argparse" | "exception" | "validate" | null}``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import enum
import io
import json
import logging
import os
import sys
import typing
import warnings
from pathlib import Path
from typing import Any

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


def parse(live: Any, argv: list[str]) -> dict[str, Any]:
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
            else:
                rec = parse(live, req["argv"])
        except BaseException as e:  # noqa: BLE001 - never lose the protocol
            rec = {"refused": True, "message": f"oracle: {type(e).__name__}: {e}"[:300], "stage": "oracle"}
        out.write(json.dumps(rec, default=str) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
