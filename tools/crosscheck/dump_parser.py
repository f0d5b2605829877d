"""Build the real ``vllm serve`` argument parser of one vLLM release and dump its actions as JSON.

Runs INSIDE a throwaway venv prepared by ``run.py`` (the release's requirements plus a CPU
torch), with the release's sdist source on ``sys.path``. Compiled extensions an sdist never
contains (``vllm._C`` and friends) and packages that could not be installed are replaced by stub
modules. This script imports vLLM; the linter itself never does.

    python dump_parser.py SRC_DIR OUT.json [--stub MODULE ...]

The parser is obtained the way ``vllm serve m`` obtains it: ``sys.argv`` is set to
``["vllm", "serve", "m"]`` and the release's CLI entry point runs until it calls ``parse_args``,
which is intercepted; the ``serve`` sub-parser is then read from the captured top-level parser.
Before ``vllm serve`` existed (< 0.5.2) the OpenAI api_server's ``make_arg_parser()`` is used.
"""

from __future__ import annotations

import argparse
import contextlib
import enum
import importlib
import importlib.abc
import importlib.machinery
import io
import json
import os
import sys
import traceback
import types
from typing import Any

# ----------------------------------------------------------------------------------------------
# stubs


class _StubMeta(type):
    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _make_stub_class(f"{cls.__name__}.{name}")

    def __call__(cls, *a: Any, **k: Any) -> Any:
        # used as a decorator: return the decorated object unchanged
        if len(a) == 1 and not k and (callable(a[0]) or isinstance(a[0], type)):
            return a[0]
        return super().__call__()

    def __iter__(cls) -> Any:
        return iter(())

    def __bool__(cls) -> bool:
        return False

    def __or__(cls, other: Any) -> Any:
        return cls

    __ror__ = __or__

    def __getitem__(cls, item: Any) -> Any:
        return cls


class _StubBase(metaclass=_StubMeta):
    def __init__(self, *a: Any, **k: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _make_stub_class(name)

    def __call__(self, *a: Any, **k: Any) -> Any:
        return _make_stub_class("call")()


def _make_stub_class(name: str) -> type:
    return _StubMeta(name.rsplit(".", 1)[-1] or "Stub", (_StubBase,), {"__module__": "xc_stub"})


class StubModule(types.ModuleType):
    def __init__(self, name: str):
        super().__init__(name)
        self.__path__: list[str] = []
        self.__file__ = f"<stub {name}>"
        self.__xc_stub__ = True

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _make_stub_class(f"{self.__name__}.{name}")


class StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers only for the listed top-level names (and their submodules)."""

    def __init__(self, names: set[str]):
        self.names = names
        self.used: set[str] = set()

    def _covers(self, fullname: str) -> bool:
        return any(fullname == n or fullname.startswith(n + ".") for n in self.names)

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if self._covers(fullname):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec: Any) -> Any:
        self.used.add(spec.name)
        return StubModule(spec.name)

    def exec_module(self, module: Any) -> None:
        pass


#: compiled parts of vLLM an sdist never contains. Other missing modules are added by run.py
#: one at a time when an import fails. The finder sits at the END of sys.meta_path, so it only
#: answers for modules that really are absent.
DEFAULT_STUBS = {
    "vllm._C", "vllm._moe_C", "vllm._rocm_C", "vllm._punica_C", "vllm._flashmla_C",
    "vllm._flashmla_extension_C", "vllm.vllm_flash_attn", "vllm.cumem_allocator", "vllm._custom_C",
    "vllm._version",
}


# ----------------------------------------------------------------------------------------------
# capture the parser


class Captured(BaseException):
    def __init__(self, parser: argparse.ArgumentParser):
        self.parser = parser


def _capture_parse() -> None:
    def intercept(self: argparse.ArgumentParser, args: Any = None, namespace: Any = None) -> Any:
        raise Captured(self)

    argparse.ArgumentParser.parse_args = intercept  # type: ignore[assignment]
    argparse.ArgumentParser.parse_known_args = intercept  # type: ignore[assignment]


def serve_parser(src: str) -> tuple[argparse.ArgumentParser, str]:
    sys.argv = ["vllm", "serve", "m"]
    has = lambda rel: os.path.exists(os.path.join(src, rel))  # noqa: E731
    if has("vllm/entrypoints/cli/main.py"):
        entry = "vllm.entrypoints.cli.main:main"
    elif has("vllm/scripts.py"):
        entry = "vllm.scripts:main"
    else:
        mod = importlib.import_module("vllm.entrypoints.openai.cli_args")
        _capture_parse()
        return mod.make_arg_parser(), "vllm.entrypoints.openai.cli_args:make_arg_parser()"
    modname, func = entry.split(":")
    mod = importlib.import_module(modname)
    _capture_parse()
    try:
        getattr(mod, func)()
    except Captured as c:
        top = c.parser
    else:
        raise RuntimeError(f"{entry} returned without parsing arguments")
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            if "serve" in action.choices:
                return action.choices["serve"], entry
    if any("serve" in (a.option_strings or []) for a in top._actions):
        raise RuntimeError("no serve sub-parser")
    # some entry points parse the serve sub-parser directly
    return top, entry


class LiveParser:
    """The real parser of a release, built once for parsing command lines (``live_parser``):
    ``top`` is the captured top-level parser (its ``FlexibleArgumentParser.parse_args`` does
    vLLM's argv preprocessing: underscores, ``=``, dotted keys, ``-O``, the ``--model`` checks),
    ``via_serve`` whether lines go to it as ``serve ...`` (False before ``vllm serve``, when it is
    the api_server parser itself), ``entry`` the entry point, ``validate`` the release's
    ``validate_parsed_serve_args`` or None."""

    def __init__(self, top: argparse.ArgumentParser, via_serve: bool, entry: str, validate: Any) -> None:
        self.top, self.via_serve, self.entry, self.validate = top, via_serve, entry, validate


def live_parser(src: str, stubs: list[str]) -> LiveParser:
    """Build the parser the way ``vllm serve m`` builds it (``serve_parser``) and keep the
    TOP-LEVEL parser it captured, with ``parse_args`` restored so that it can parse. Raises what
    the import raises (``ModuleNotFoundError`` names a module to stub)."""
    global Captured
    sys.path.insert(0, os.path.abspath(src))
    os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
    sys.meta_path.append(StubFinder(DEFAULT_STUBS | set(stubs)))
    orig = argparse.ArgumentParser.parse_args, argparse.ArgumentParser.parse_known_args
    tops: list = []
    plain = Captured

    class Recorded(plain):  # type: ignore[misc, valid-type]
        def __init__(self, parser: argparse.ArgumentParser):
            super().__init__(parser)
            tops.append(parser)

    Captured = Recorded
    try:
        serve, entry = serve_parser(os.path.abspath(src))
    finally:
        argparse.ArgumentParser.parse_args, argparse.ArgumentParser.parse_known_args = orig  # type: ignore[method-assign]
        Captured = plain
    top = tops[0] if tops else serve
    validate = None
    # where the validator lives: openai/cli_args.py until 0.28, launchers/ (0.29-0.32), common/ (0.33)
    for mod in ("vllm.entrypoints.common.cli_args", "vllm.entrypoints.launchers.cli_args",
                "vllm.entrypoints.openai.cli_args"):
        try:
            validate = getattr(importlib.import_module(mod), "validate_parsed_serve_args", None)
        except Exception:  # noqa: BLE001
            continue
        if validate is not None:
            break
    return LiveParser(top, top is not serve, entry, validate)


# ----------------------------------------------------------------------------------------------
# dump


def jsonable(v: Any, depth: int = 0) -> Any:
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if v == v and v not in (float("inf"), float("-inf")) else repr(v)
    if isinstance(v, enum.Enum):
        return jsonable(v.value, depth + 1)
    if depth > 6:
        return repr(v)
    if isinstance(v, (list, tuple, set, frozenset)):
        items = [jsonable(x, depth + 1) for x in v]
        return sorted(items, key=repr) if isinstance(v, (set, frozenset)) else items
    if isinstance(v, dict):
        return {str(k): jsonable(x, depth + 1) for k, x in v.items()}
    return {"__repr__": repr(v)[:200], "__type__": type(v).__name__}


def type_name(t: Any) -> Any:
    if t is None:
        return None
    name = getattr(t, "__name__", None)
    if name == "<lambda>" or name is None:
        qual = getattr(t, "__qualname__", None) or type(t).__name__
        return f"{getattr(t, '__module__', '?')}.{qual}"
    if isinstance(t, types.FunctionType) and getattr(t, "__closure__", None):
        return f"{name}(closure)"
    return name


def dump(parser: argparse.ArgumentParser) -> list[dict[str, Any]]:
    by_action: dict[int, dict[str, Any]] = {}
    order: list[int] = []
    for s, action in parser._option_string_actions.items():
        key = id(action)
        if key not in by_action:
            by_action[key] = {"action": action, "strings": []}
            order.append(key)
        by_action[key]["strings"].append(s)
    for action in parser._actions:
        if not action.option_strings and id(action) not in by_action:
            by_action[id(action)] = {"action": action, "strings": []}
            order.append(id(action))
    deprecated = {id(a) for a in getattr(parser, "_deprecated", set()) or set()}
    out = []
    for key in order:
        action: argparse.Action = by_action[key]["action"]
        choices = action.choices
        out.append({
            "option_strings": sorted(set(by_action[key]["strings"])),
            "visible_strings": list(action.option_strings),
            "dest": action.dest,
            "default": jsonable(action.default),
            "const": jsonable(action.const),
            "choices": None if choices is None else jsonable(list(choices)),
            "nargs": action.nargs,
            "type": type_name(action.type),
            "action": type(action).__name__,
            "help_suppressed": action.help == argparse.SUPPRESS,
            "deprecated": bool(getattr(action, "deprecated", False)) or key in deprecated,
            "required": bool(action.required),
            "choice_probe": choice_probe(parser, action) if choices is not None and action.option_strings else None,
        })
    return out


def accepts(parser: argparse.ArgumentParser, action: argparse.Action, word: str) -> bool:
    """Whether argparse takes ``word`` as the action's one value: its type, then the choice check
    (``_get_values``, what ``parse_args`` runs for each value)."""
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            parser._get_values(action, [word])
    except BaseException:  # noqa: BLE001 - ArgumentError, or whatever the type function raises
        return False
    return True


def choice_probe(parser: argparse.ArgumentParser, action: argparse.Action) -> dict[str, Any]:
    """What the type of an option with choices does to the words around its choices: whether the
    word ``None`` and the empty word pass, whether every string choice passes written upper-case
    or lower-case (a type that changes the case first) or with ``-`` for ``_``; and the choices that do not pass as
    written (a type that maps them elsewhere)."""
    if isinstance(action.nargs, int) and action.nargs != 1:
        return {}
    strings = [c for c in action.choices if isinstance(c, str) and c]
    upper = [c for c in strings if c.upper() != c]
    lower = [c for c in strings if c.lower() != c]
    dashed = [c for c in strings if "_" in c]
    return {
        "none": accepts(parser, action, "None"),
        "empty": accepts(parser, action, ""),
        "upper": bool(upper) and all(accepts(parser, action, c.upper()) for c in upper),
        "lower": bool(lower) and all(accepts(parser, action, c.lower()) for c in lower),
        "dashed": bool(dashed) and all(accepts(parser, action, c.replace("_", "-")) for c in dashed),
        "refused_as_written": [c for c in strings if not accepts(parser, action, c)],
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("out")
    ap.add_argument("--stub", action="append", default=[])
    ns = ap.parse_args()
    src = os.path.abspath(ns.src)
    sys.path.insert(0, src)
    os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
    finder = StubFinder(DEFAULT_STUBS | set(ns.stub))
    sys.meta_path.append(finder)
    result: dict[str, Any] = {"src": src}
    try:
        parser, entry = serve_parser(src)
    except ModuleNotFoundError as e:
        result["error"] = f"ModuleNotFoundError: {e}"
        result["missing_module"] = e.name
        result["traceback"] = traceback.format_exc()[-3000:]
        json.dump(result, open(ns.out, "w"), indent=1)
        return 3
    except BaseException as e:  # noqa: BLE001
        result["error"] = f"{type(e).__name__}: {e}"
        result["traceback"] = traceback.format_exc()[-3000:]
        json.dump(result, open(ns.out, "w"), indent=1)
        return 1
    result.update({"entry": entry, "prog": parser.prog, "stubs_used": sorted(finder.used),
                   "actions": dump(parser)})
    json.dump(result, open(ns.out, "w"), indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
