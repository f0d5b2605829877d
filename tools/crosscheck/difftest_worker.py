"""Worker of the differential tester: the REAL ``vllm serve`` parser of one release, as a server.

Runs INSIDE a release venv prepared by ``run.py`` (the release's sdist on ``sys.path``, stubs for
compiled extensions). It builds the parser once the way ``vllm serve m`` builds it (the release's
own CLI ``main()`` runs until ``parse_args``, see ``dump_parser.serve_parser``) and keeps the
captured TOP-LEVEL parser, whose ``FlexibleArgumentParser.parse_args`` does vLLM's argv
preprocessing (underscores, ``=``, dotted keys, ``-O`` rewrites, ``--model`` checks).

Protocol: one JSON array (the words after ``vllm serve``) per line on stdin; one JSON object per
line on stdout: ``{"ok": bool, "error": "<argparse error line or exception>", "kind":
"argparse" | "exception", "validate_error": str | null, "engine_error": str | null,
"start_error": {...} | null}`` (``engine_error``: what ``AsyncEngineArgs.from_cli_args`` raised
on the parsed namespace; ``start_error``: a refusal of the start-up configuration that is certain
without a model, see ``StartCheck``). A JSON object ``{"argv": [...], "choices": {option string:
[...]}}`` is parsed the same way with those actions' choices replaced for that line only (the
lists another process of the release drew); ``{"op": "choices"}`` answers ``{"choices": {longest
option string: {"strings": [...], "choices": [...]}}}`` for every action with a choice list.
The first line written is
``{"ready": true, "entry": ...}`` (or ``{"error": ..., "missing_module": ...}`` when the parser
cannot be built). No vllm_lint import here.

    python difftest_worker.py SRC_DIR [--stub MODULE ...]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import os
import sys
import warnings
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _error_line(text: str) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    for ln in lines:
        if "error:" in ln:
            return ln[ln.index("error:") + 6:].strip()[:400]
    return " | ".join(lines[:3])[:400]


def build(src: str, stubs: list[str]) -> tuple[Any, bool, str, Any]:
    sys.path.insert(0, str(HERE))
    import dump_parser as dp  # noqa: E402  (tools/crosscheck/dump_parser.py)

    live = dp.live_parser(src, stubs)
    return live.top, live.via_serve, live.entry, live.validate


def engine_args_builder() -> Any:
    """``EngineArgs.from_cli_args`` of the release, or None: building EngineArgs from the parsed
    namespace is the first thing ``vllm serve`` does after parsing, before any model is read;
    its ``__post_init__`` and the config classes it builds refuse some values the parser kept."""
    try:
        import importlib

        return importlib.import_module("vllm.engine.arg_utils").AsyncEngineArgs.from_cli_args
    except Exception:  # noqa: BLE001
        return None


def parse_one(top: Any, via_serve: bool, validate: Any, argv: list[str], engine: Any = None,
              start: "StartCheck | None" = None) -> dict[str, Any]:
    full = ["serve", *argv] if via_serve else list(argv)
    sys.argv = ["vllm", *full]
    err = io.StringIO()
    rec: dict[str, Any] = {"ok": False, "error": None, "kind": None, "validate_error": None}
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            ns = top.parse_args(list(full))
    except SystemExit as e:
        rec.update(error=_error_line(err.getvalue()) or f"exit {e.code}", kind="argparse")
        if e.code == 0:
            rec.update(ok=True, error=None, kind=None)
        return rec
    except BaseException as e:  # noqa: BLE001 - vLLM's preprocessing raises ValueError and friends
        rec.update(error=_first_line(e)[:400], kind="exception")
        return rec
    rec["ok"] = True
    if validate is not None:
        e = _raised_quietly(validate, ns)
        if e is not None:
            rec["validate_error"] = f"{type(e).__name__}: {e}"[:300]
    if not hasattr(ns, "model") and hasattr(ns, "model_tag"):
        # 0.9.0's serve parser has no --model: its command sets args.model = args.model_tag
        # before it builds the engine (EngineArgs' own default without one)
        ns.model = ns.model_tag if ns.model_tag is not None else "facebook/opt-125m"
    if start is not None:  # first: it works on copies, the engine step may change ns
        try:
            rec["start_error"] = start.check(ns)
        except BaseException as e:  # noqa: BLE001 - a failing check is no verdict
            rec["start_error"] = None
            rec["start_check_failed"] = _first_line(e)[:300]
    rec["engine_error"] = None
    if engine is not None:
        e = _raised_quietly(engine, ns)
        if e is not None:
            rec["engine_error"] = _first_line(e)[:300]
    return rec


def serve_actions(top: Any, via_serve: bool) -> Any:
    """The serve parser (the top-level one where the release has no ``serve`` sub-command)."""
    if via_serve:
        for action in top._actions:
            if isinstance(action, argparse._SubParsersAction) and "serve" in action.choices:
                return action.choices["serve"]
    return top


def choice_lists(top: Any, via_serve: bool) -> dict[str, Any]:
    serve = serve_actions(top, via_serve)
    out: dict[str, Any] = {}
    for action in serve._actions:
        if action.option_strings and isinstance(action.choices, (list, tuple)):
            out[max(action.option_strings, key=len)] = {
                "strings": sorted(action.option_strings),
                "choices": [c if c is None or isinstance(c, (str, int, float, bool)) else repr(c)
                            for c in action.choices]}
    return out


@contextlib.contextmanager
def choices_swapped(top: Any, via_serve: bool, choices: "dict[str, list[Any]] | None") -> Any:
    serve = serve_actions(top, via_serve)
    saved = []
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


def _raised_quietly(step, ns) -> "BaseException | None":
    """What ``step(ns)`` raises, with its output swallowed."""
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            step(ns)
    except BaseException as e:  # noqa: BLE001 - any refusal of vLLM's is a result here
        return e
    return None


def _first_line(e: BaseException) -> str:
    msg = str(e).strip()
    return f"{type(e).__name__}: {msg.splitlines()[0] if msg else ''}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--stub", action="append", default=[])
    ns = ap.parse_args()
    out = sys.stdout
    sys.stdout = io.StringIO()  # vLLM prints at import; keep the protocol channel clean
    try:
        top, via_serve, entry, validate = build(ns.src, ns.stub)
    except ModuleNotFoundError as e:
        out.write(json.dumps({"error": f"ModuleNotFoundError: {e}", "missing_module": e.name}) + "\n")
        out.flush()
        return 3
    except BaseException as e:  # noqa: BLE001
        out.write(json.dumps({"error": f"{type(e).__name__}: {e}"}) + "\n")
        out.flush()
        return 1
    engine = engine_args_builder()
    start, start_steps = None, None
    try:
        from difftest_start import StartCheck  # tools/crosscheck/difftest_start.py

        start = StartCheck(top, via_serve, validate)
        start_steps = start.describe()
    except Exception as e:  # noqa: BLE001 - no start check where the release's layout is not known
        start_steps = {"unavailable": _first_line(e)}
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    out.write(json.dumps({"ready": True, "entry": entry, "via_serve": via_serve,
                          "start_steps": start_steps}) + "\n")
    out.flush()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
            if isinstance(req, dict) and req.get("op") == "choices":
                rec = {"choices": choice_lists(top, via_serve)}
            elif isinstance(req, dict):
                with choices_swapped(top, via_serve, req.get("choices")):
                    rec = parse_one(top, via_serve, validate, req["argv"], engine, start)
            else:
                rec = parse_one(top, via_serve, validate, req, engine, start)
        except BaseException as e:  # noqa: BLE001 - never lose the protocol
            rec = {"ok": False, "error": f"worker: {type(e).__name__}: {e}"[:300], "kind": "exception"}
        out.write(json.dumps(rec) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
