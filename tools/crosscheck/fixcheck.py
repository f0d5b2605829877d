"""Check ``vllm-lint --fix --target-version T`` against the REAL ``vllm serve`` parser of T.

Maintainer tool; not part of the default tests (the pure parts are tested offline in
``tests/tools/test_fixcheck_logic.py``). For each case in ``fixcheck_cases/`` (one ``vllm serve``
command line per shell script, its first line ``# fixcheck: origin=<release>``) and each target T:

1. parse the ORIGINAL argv with the real parser of the origin release (a case the origin rejects
   is invalid test data and is reported, not checked further);
2. run ``vllm-lint --fix --target-version T`` on a copy of the script, read the fixed command line
   back and the findings that remain (``--output-format json``);
3. parse the FIXED argv with the real parser of T (``parse_args(["serve", model, ...])`` on the
   top-level parser of ``vllm`` captured by ``dump_parser.serve_parser``), catching ``SystemExit``
   and exceptions with their message, and classify:

   * ``accepted``: T's parser accepts the fixed command line;
   * ``reported``: T rejects it, and vllm-lint still reports an error-level finding there (honest:
     no automatic fix);
   * ``bug``: T rejects it and vllm-lint reports no remaining error (false negative / broken fix);

4. compare what the two parses mean: every setting given explicitly at the origin (dests recorded
   while argparse runs the actions; JSON options flattened to ``dest.key`` entries, config objects
   to their non-default fields) must come out with the same value at T, under the same dest or the
   successor the flag database names (``flag_db/overlays/renames.json`` and vLLM's own deprecation
   successors). A setting missing at T is ``dropped`` when the fixed command line no longer names
   it (a removed option deleted by the fix, or one left for the user to handle), otherwise a
   mismatch.

The real parsers come from the throwaway environments of ``run.py`` (``<work>/xc-venv-<v>``,
``<work>/xc-src-<v>``); ``run.dump`` is used once per release to learn which modules must be
stubbed, and this file re-runs itself inside the release's venv (``--worker``) to parse.

    /work/venv/bin/python tools/crosscheck/fixcheck.py --targets 0.10.2 0.13.0 0.27.1 0.33.0 \\
        [--cases DIR] [--work /tmp] [--unsafe-fixes] [--json out.json] [--markdown out.md]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CASES = HERE / "fixcheck_cases"

# ==============================================================================================
# worker: runs INSIDE a release venv (no vllm_lint import here)


def _recording_actions(parser: argparse.ArgumentParser, seen: list) -> None:
    """Swap each action's class for a subclass that records (option string, dest) when argparse
    runs it, so that we know which settings a command line gave explicitly."""
    for sub in _all_parsers(parser):
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction) or getattr(action, "_xc_rec", False):
                continue
            cls = type(action)

            def call(self, p, ns, values, option_string=None, _cls=cls):
                seen.append([option_string, self.dest])
                return _cls.__call__(self, p, ns, values, option_string)

            try:
                action.__class__ = type("Rec" + cls.__name__, (cls,), {"__call__": call, "_xc_rec": True})
            except TypeError:  # pragma: no cover - exotic action classes
                pass


def _all_parsers(parser: argparse.ArgumentParser) -> list:
    out = [parser]
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for p in a.choices.values():
                if p not in out:
                    out.extend(_all_parsers(p))
    return out


def _value(v: Any, depth: int = 0) -> Any:
    """A JSON form of a parsed value; config objects (dataclasses, pydantic models) become their
    fields that differ from the class's own default instance."""
    import dataclasses
    import enum

    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if v == v else repr(v)
    if isinstance(v, enum.Enum):
        return _value(v.value, depth + 1)
    if depth > 6:
        return repr(v)
    if isinstance(v, (list, tuple)):
        return [_value(x, depth + 1) for x in v]
    if isinstance(v, (set, frozenset)):
        return sorted((_value(x, depth + 1) for x in v), key=repr)
    if isinstance(v, dict):
        return {str(k): _value(x, depth + 1) for k, x in v.items()}
    # config objects (dataclasses, pydantic models): every field, and the names of those equal to
    # the class's own default instance (not set by the command line)
    names: list[str] = []
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        names = [f.name for f in dataclasses.fields(v)]
    elif isinstance(getattr(type(v), "model_fields", None), dict) and not isinstance(v, type):
        names = list(type(v).model_fields)
    if names:
        try:
            base = type(v)()
        except Exception:  # noqa: BLE001 - no default instance: every field counts as set
            base = None
        out: dict[str, Any] = {"__config__": type(v).__name__}
        defaults = []
        for name in names:
            if name.startswith("_"):
                continue
            try:
                cur = getattr(v, name)
            except Exception:  # noqa: BLE001
                continue
            out[name] = _value(cur, depth + 1)
            if base is not None:
                try:
                    if getattr(base, name) == cur:
                        defaults.append(name)
                except Exception:  # noqa: BLE001
                    pass
        out["__defaults__"] = defaults
        return out
    return {"__repr__": repr(v)[:200], "__type__": type(v).__name__}


def worker(src: str, jobs_file: str, out_file: str, stubs: list[str]) -> int:
    import contextlib
    import io
    import logging
    import warnings

    sys.path.insert(0, str(HERE))
    import dump_parser as dp  # noqa: E402  (tools/crosscheck/dump_parser.py, reused as is)

    try:
        live = dp.live_parser(src, stubs)
    except ModuleNotFoundError as e:
        json.dump({"error": f"ModuleNotFoundError: {e}", "missing_module": e.name}, open(out_file, "w"))
        return 3
    top, via_serve, validate, entry = live.top, live.via_serve, live.validate, live.entry
    seen: list = []
    _recording_actions(top, seen)
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    jobs = json.load(open(jobs_file))
    out = []
    for argv in jobs:
        seen.clear()
        err = io.StringIO()
        rec: dict[str, Any] = {"argv": argv}
        full = ["serve", *argv] if via_serve else _api_server_argv(argv)
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                ns = top.parse_args(list(full))
            rec["ok"] = True
        except SystemExit as e:
            rec.update(ok=False, error=_error_line(err.getvalue()) or f"exit {e.code}",
                       error_full=err.getvalue()[-1500:])
            out.append(rec)
            continue
        except Exception as e:  # noqa: BLE001 - vLLM's preprocessing raises ValueError and friends
            rec.update(ok=False, error=_error_line(f"{type(e).__name__}: {e}") or type(e).__name__,
                       error_full=f"{type(e).__name__}: {e}"[-1500:])
            out.append(rec)
            continue
        given: dict[str, Any] = {}
        for opt_string, dest in seen:
            if dest in ("subparser", "dispatch_function") or opt_string is None and dest == "model_tag":
                continue
            given.setdefault(dest, []).append(opt_string)
        rec["given"] = given
        rec["namespace"] = {k: _value(v) for k, v in vars(ns).items()
                            if k not in ("dispatch_function",) and not callable(v)}
        if validate is not None:
            try:
                with contextlib.redirect_stderr(io.StringIO()):
                    validate(ns)
            except BaseException as e:  # noqa: BLE001
                rec["validate_error"] = f"{type(e).__name__}: {e}"[:300]
        out.append(rec)
    json.dump({"entry": entry, "via_serve": via_serve, "results": out}, open(out_file, "w"),
              indent=1, default=repr)
    return 0


def _error_line(text: str) -> str:
    """The line of a parser error that says what is wrong: argparse's "error:" line, else the
    first line of a validation error (pydantic puts its reason on the lines after it)."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    for ln in lines:
        if "error:" in ln:
            return ln[:300]
    reason = [ln for ln in lines if not ln.startswith(("For further information", "Traceback", "File "))]
    return " | ".join(reason[:3])[:300]


def _api_server_argv(argv: list[str]) -> list[str]:
    """Before ``vllm serve`` (< 0.5.2) the model is ``--model``."""
    if argv and not argv[0].startswith("-"):
        return ["--model", argv[0], *argv[1:]]
    return list(argv)


# ==============================================================================================
# pure helpers (tested offline)

_HEADER = re.compile(r"#\s*fixcheck:\s*(.*)")


def case_meta(text: str) -> dict[str, str]:
    """``# fixcheck: origin=0.8.5 note=...`` -> {"origin": "0.8.5", ...}."""
    for line in text.splitlines():
        m = _HEADER.match(line.strip())
        if m:
            return dict(kv.split("=", 1) for kv in m.group(1).split() if "=" in kv)
    return {}


def serve_argv(text: str) -> Optional[list[str]]:
    """The arguments after ``vllm serve`` of the (only) vLLM command in a simple shell script:
    comments dropped, line continuations joined, words split like the shell does."""
    lines = []
    for line in text.replace("\\\r\n", "\\\n").splitlines():
        if line.lstrip().startswith("#"):
            continue
        lines.append(line)
    joined = "\n".join(lines).replace("\\\n", " ")
    for stmt in joined.splitlines():
        try:
            words = shlex.split(stmt, comments=True)
        except ValueError:
            continue
        for i in range(len(words) - 1):
            if os.path.basename(words[i]) == "vllm" and words[i + 1] == "serve":
                return words[i + 2:]
    return None


def flatten(namespace: dict[str, Any], given: dict[str, list], explicit_only: bool = True) -> dict[str, Any]:
    """Settings of one parse as ``{key: value}``: ``dest`` for plain options, ``dest.key`` (nested:
    ``dest.a.b``) for JSON options and config objects. Only dests the command line gave; inside a
    config object, only fields that differ from the class default unless ``explicit_only`` is
    false. Then :func:`derive` adds the settings that two spellings share."""
    out: dict[str, Any] = {}
    for dest in given:
        if dest not in namespace:
            continue
        v = namespace[dest]
        if isinstance(v, dict) and "__repr__" not in v:
            _flatten_into(out, dest, v, explicit_only)
        else:
            out[dest] = v
    return derive(out)


def _flatten_into(out: dict[str, Any], prefix: str, d: dict[str, Any], explicit_only: bool) -> None:
    skip = set(d.get("__defaults__") or ()) if explicit_only else set()
    for k, v in d.items():
        if k in ("__config__", "__defaults__") or k in skip:
            continue
        if isinstance(v, dict) and v and "__repr__" not in v and "__config__" not in v:
            _flatten_into(out, f"{prefix}.{k}", v, explicit_only)
        elif isinstance(v, dict) and "__config__" in v:
            _flatten_into(out, f"{prefix}.{k}", v, explicit_only)
        else:
            out[f"{prefix}.{k}"] = v


def _as_int(v: Any) -> Optional[int]:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and re.fullmatch(r"\d+", v.strip()):
        return int(v)
    return None


def derive(settings: dict[str, Any]) -> dict[str, Any]:
    """One key for what several spellings of a release set: the compilation mode.

    ``compilation_config.level`` (<= 0.10) and ``.mode`` (0.11+) are the same enumeration
    (0 none, 1 torch.compile as is, 2 Dynamo once, 3 vLLM's compile); ``-O<n>`` is
    ``compilation_config.level=n`` up to 0.11 and ``--optimization-level n`` from 0.12, where
    O0 compiles nothing and O1-O3 all select mode 3 (vLLM 0.13 ``vllm/config/vllm.py``). The
    derived key is ``compilation_config.mode``; ``optimization_level`` itself stays as it is."""
    out = dict(settings)
    level = out.pop("compilation_config.level", None)
    if "compilation_config.mode" not in out and level is not None:
        out["compilation_config.mode"] = level
    if "compilation_config.mode" not in out and "optimization_level" in out:
        n = _as_int(out["optimization_level"])
        if n is not None:
            out["compilation_config.mode"] = 0 if n == 0 else 3
    return out


def norm(v: Any) -> Any:
    """Value normal form for comparing two releases: tuples are lists, config markers dropped,
    enum names kept as they are."""
    if isinstance(v, (list, tuple)):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in sorted(v.items()) if k not in ("__config__", "__defaults__")}
    return v


def translate(key: str, aliases: dict[str, str]) -> str:
    """Follow the successor chain of a setting key (``guided_decoding_backend`` ->
    ``structured_outputs_config.backend``); a whole-key alias wins over a dest alias."""
    seen = set()
    while key not in seen:
        seen.add(key)
        if key in aliases:
            key = aliases[key]
            continue
        head, dot, tail = key.partition(".")
        if dot and head in aliases:
            key = aliases[head] + "." + tail
            continue
        break
    return key


def option_words(argv: list[str]) -> list[str]:
    """The option each word of an argv names, normalised (``--max_model_len=1`` -> ``--max-model-len``,
    ``--compilation-config.level`` -> ``--compilation-config``, ``-O3`` / ``-O.level`` -> ``-O``);
    "" for words that are not options."""
    out = []
    for w in argv:
        if not w.startswith("-") or re.fullmatch(r"-\d+(\.\d*)?|-\.\d+", w):
            out.append("")
            continue
        head = w.split("=", 1)[0]
        if head.startswith("--"):
            head = head.split(".", 1)[0].replace("_", "-")
        elif head.startswith("-O"):
            head = "-O"
        else:
            head = head.split(".", 1)[0]
        out.append(head)
    return out


def deleted_words(original: list[str], fixed: list[str]) -> set[str]:
    """Options whose words the fix deleted (difflib alignment of the two argvs; a replaced word is
    a rename, not a deletion)."""
    import difflib

    ow = option_words(original)
    sm = difflib.SequenceMatcher(None, original, fixed, autojunk=False)
    out = set()
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "delete":
            out.update(w for w in ow[i1:i2] if w)
        elif op == "replace":
            out.update(_unpaired(_items(original[i1:i2]), _items(fixed[j1:j2])))
    return out


def _items(words: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """(option word, the words after it up to the next option) for each option in a slice."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for w, ow in zip(words, option_words(words)):
        if ow:
            out.append((ow, ()))
        elif out:
            out[-1] = (out[-1][0], out[-1][1] + (w,))
    return out


def _unpaired(gone: list[tuple[str, tuple]], new: list[tuple[str, tuple]]) -> list[str]:
    """Option words of ``gone`` left over after pairing each new option with the old one it
    rewrites: its expansion (an abbreviation), the same value words, or else the next in order."""
    paired = [False] * len(gone)
    rest = []
    for word, vals in new:
        for k, (g, gv) in enumerate(gone):
            if not paired[k] and (refers(g, word) or (vals and vals == gv)):
                paired[k] = True
                break
        else:
            rest.append(word)
    for _ in rest:
        k = next((k for k, p in enumerate(paired) if not p), None)
        if k is not None:
            paired[k] = True
    return [g for (g, _), p in zip(gone, paired) if not p]


def refers(word: str, option_string: str) -> bool:
    """Does a written (normalised) option word select ``option_string``: equal, or a long prefix."""
    return word == option_string or (word.startswith("--") and len(word) > 2 and option_string.startswith(word))


def dropped_dests(original: list[str], fixed: list[str], origin_given: dict[str, list]) -> set[str]:
    """Dests of the origin parse whose option the fix deleted from the command line."""
    gone = deleted_words(original, fixed)
    return {dest for dest, strings in origin_given.items()
            if any(refers(w, s) for w in gone for s in strings if s)}


def _inverse_key(key: str, target: dict[str, Any], val: Any) -> Optional[str]:
    """``disable_x`` <-> ``enable_x`` when both sides are booleans (0.33's --disable-x spellings
    set enable_x=False)."""
    if not isinstance(val, bool) or "." in key:
        return None
    for a, b in (("disable_", "enable_"), ("enable_", "disable_")):
        if key.startswith(a):
            other = b + key[len(a):]
            if isinstance(target.get(other), bool):
                return other
    return None


def compare_settings(origin: dict[str, Any], target: dict[str, Any], aliases: dict[str, str],
                     dropped: set[str], target_explicit: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    """Compare the explicit settings of the origin parse with the target parse.

    ``origin``: explicit settings at the origin; ``target``: every setting of the target parse
    that the looked-up keys may hit (config objects with their default fields too);
    ``dropped``: origin dests whose option the fix deleted; ``target_explicit``: the target's own
    explicit settings (for the ``extra`` list). A key missing at T whose option the fix did not
    delete is ``lost``: the command line still says it, T no longer means it."""
    agree, differ, drop, lost = [], [], [], []
    used = set()
    for key, val in sorted(origin.items()):
        # the same key when the target still has it, else along the successor chain
        tkey = key if key in target else translate(key, aliases)
        inv = _inverse_key(tkey, target, val)
        if tkey not in target and inv is not None:
            # --disable-x at the origin, its negation --no-enable-x / --disable-x of enable_x at T
            used.add(inv)
            if target[inv] is (not val):
                agree.append(key)
            else:
                differ.append({"key": key, "target_key": inv, "origin": val, "target": target[inv]})
        elif tkey in target:
            used.add(tkey)
            if norm(target[tkey]) == norm(val):
                agree.append(key)
            else:
                differ.append({"key": key, "target_key": tkey, "origin": val, "target": target[tkey]})
        elif key.partition(".")[0] in dropped:
            drop.append(key)
        else:
            lost.append({"key": key, "target_key": tkey, "origin": val})
    extra = sorted(k for k in (target_explicit if target_explicit is not None else target) if k not in used)
    return {"agree": agree, "differ": differ, "dropped": drop, "lost": lost, "extra": extra}


def classify(accepted: bool, remaining: list[dict[str, Any]]) -> str:
    """accepted | reported (rejected, an error-level finding remains) | bug."""
    if accepted:
        return "accepted"
    if any(f.get("severity") == "error" for f in remaining):
        return "reported"
    return "bug"


def attributed(error_text: str, remaining: list[dict[str, Any]]) -> bool:
    """Does an error-level finding name what the parser complained about (the option as written,
    in backticks in the message, or the option the finding is about, appears in the error)?"""
    for f in remaining:
        if f.get("severity") != "error":
            continue
        names = re.findall(r"`([^`]+)`", f.get("message") or "")[:1] + [f.get("option") or ""]
        key_words = [n for n in names if n and n in error_text]
        if key_words:
            return True
        # a JSON key vLLM's validation names ("unknown key `level` in `--compilation-config`")
        if any(re.search(rf"\b{re.escape(n)}\b", error_text) for n in re.findall(r"`([^`]+)`", f.get("message") or "")):
            return True
    return False


def aliases_from_db(db_dir: Path) -> dict[str, str]:
    """``old_dest`` -> ``new_dest[.key]`` from the curated overlay and vLLM's own deprecation
    successors in every release file (option strings converted to dests)."""
    rels = sorted((db_dir / "releases").glob("*.json"))
    dest_of: dict[str, str] = {}
    succ: dict[str, str] = {}
    for p in rels:
        doc = json.loads(p.read_text())
        for o in doc.get("options", []):
            for s in [o["name"], *o.get("aliases", [])]:
                if s.startswith("--") and o.get("dest"):
                    dest_of.setdefault(s, o["dest"])
            dep = o.get("deprecated") or {}
            if dep.get("successor"):
                succ.setdefault(o["name"], dep["successor"])
    ov = json.loads((db_dir / "overlays" / "renames.json").read_text()).get("options", {})
    for name, e in ov.items():
        if e.get("successor"):
            succ[name] = e["successor"]
        else:
            succ.pop(name, None)

    def to_key(option: str) -> Optional[str]:
        base, dot, tail = option.partition(".")
        d = dest_of.get(base) or base.lstrip("-").replace("-", "_")
        return d + (dot + tail if dot else "")

    out = {}
    for old, new in succ.items():
        ok, nk = to_key(old), to_key(new)
        if ok and nk and ok != nk:
            out[ok] = nk
    return out


# ==============================================================================================
# driver (runs in the vllm-lint venv)


def release_env(version: str, work: Path) -> tuple[Path, Path, list[str]]:
    """(venv, src, stubs) of a release prepared by run.py; the stubs are learned once with
    ``run.dump`` and cached next to the venv."""
    sys.path.insert(0, str(HERE))
    import run  # tools/crosscheck/run.py, reused as is

    venv, src = work / f"xc-venv-{version}", work / f"xc-src-{version}"
    cache = venv / ".fixcheck-stubs.json"
    if not (venv / ".xc-installed").exists() or not (src / "vllm").is_dir():
        base = run.base_venv(work)
        src = run.extract_sdist(version, work)
        venv, _ = run.release_venv(version, src, work, base)
    if cache.exists():
        return venv, src, json.loads(cache.read_text())
    dumped = work / f"xc-out-{version}.json"  # run.py's own dump records the stubs it needed
    if dumped.exists() and "extra_stubs" in (doc := json.loads(dumped.read_text())):
        cache.write_text(json.dumps(doc["extra_stubs"]))
        return venv, src, doc["extra_stubs"]
    doc = run.dump(version, src, venv, work)
    stubs = list(doc.get("extra_stubs", []))
    cache.write_text(json.dumps(stubs))
    return venv, src, stubs


def real_parse(version: str, argvs: list[list[str]], work: Path) -> list[dict[str, Any]]:
    venv, src, stubs = release_env(version, work)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "VLLM_TARGET_DEVICE": "cpu",
           "TOKENIZERS_PARALLELISM": "false"}
    env.pop("PYTHONPATH", None)
    with tempfile.TemporaryDirectory(prefix="fixcheck-") as td:
        jobs, out = Path(td) / "jobs.json", Path(td) / "out.json"
        jobs.write_text(json.dumps(argvs))
        cmd = [str(venv / "bin" / "python"), str(Path(__file__).resolve()), "--worker", str(src), str(jobs), str(out)]
        for s in stubs:
            cmd += ["--stub", s]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env, cwd=td)
        try:
            doc = json.loads(out.read_text())
        except (OSError, ValueError):
            raise SystemExit(f"{version}: worker failed: {r.stderr[-2000:]}")
    if "results" not in doc:
        raise SystemExit(f"{version}: worker failed: {doc.get('error')}")
    return doc["results"]


def run_fix(cases: dict[str, str], target: str, unsafe: bool, db: Optional[Path]) -> dict[str, dict[str, Any]]:
    """Run ``vllm-lint --fix -t target`` on copies of the cases; -> {case: {fixed, remaining}}."""
    exe = Path(sys.executable).with_name("vllm-lint")
    with tempfile.TemporaryDirectory(prefix="fixcheck-lint-") as td:
        root = Path(td)
        for name, text in cases.items():
            (root / name).write_text(text)
        base = [str(exe), "lint", "--target-version", target, "--no-cache", "--exit-zero", "-q"]
        if db is not None:
            base += ["--db", str(db)]
        fix = base + ["--fix"] + (["--unsafe-fixes"] if unsafe else [])
        r = subprocess.run(fix + ["."], capture_output=True, text=True, cwd=root, timeout=600)
        if r.returncode not in (0, 1):
            raise SystemExit(f"vllm-lint --fix failed ({r.returncode}): {r.stderr[-1500:]}")
        r = subprocess.run(base + ["--output-format", "json", "."], capture_output=True, text=True,
                           cwd=root, timeout=600)
        try:
            findings = json.loads(r.stdout or "[]")
        except ValueError:
            raise SystemExit(f"vllm-lint json output unreadable: {r.stdout[:500]} {r.stderr[-500:]}")
        if isinstance(findings, dict):
            findings = findings.get("findings") or findings.get("diagnostics") or []
        out = {}
        for name in cases:
            fixed = (root / name).read_text()
            rem = [f for f in findings if Path(str(f.get("filename") or f.get("path") or f.get("file"))).name == name]
            out[name] = {"fixed": fixed, "remaining": rem}
        return out


def load_cases(directory: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(directory.glob("*.sh"))}


def main(argv: Optional[list[str]] = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["--worker"]:
        ap = argparse.ArgumentParser()
        ap.add_argument("--worker", nargs=3)
        ap.add_argument("--stub", action="append", default=[])
        ns = ap.parse_args(argv)
        return worker(*ns.worker, ns.stub)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--targets", nargs="+", default=["0.10.2", "0.13.0", "0.27.1", "0.33.0"])
    ap.add_argument("--cases", type=Path, default=CASES)
    ap.add_argument("--work", type=Path, default=Path("/tmp"))
    ap.add_argument("--db", type=Path, default=None, help="flag database for vllm-lint (default: its own)")
    ap.add_argument("--unsafe-fixes", action="store_true")
    ap.add_argument("--only", nargs="*", default=None, help="case file names to run")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--markdown", type=Path, default=None)
    ns = ap.parse_args(argv)
    return drive(ns)


def drive(ns: argparse.Namespace) -> int:
    cases = load_cases(ns.cases)
    if ns.only:
        cases = {k: v for k, v in cases.items() if k in ns.only}
    meta = {name: case_meta(text) for name, text in cases.items()}
    argvs = {name: serve_argv(text) for name, text in cases.items()}
    db_dir = ns.db or Path(os.environ.get("VLLM_LINT_DB") or REPO / "flag_db")
    aliases = aliases_from_db(db_dir)
    report: dict[str, Any] = {"cases": {}, "targets": ns.targets, "unsafe_fixes": ns.unsafe_fixes}

    # 1. origin validity
    by_origin: dict[str, list[str]] = {}
    for name, m in meta.items():
        by_origin.setdefault(m.get("origin", "?"), []).append(name)
    origin_parse: dict[str, dict[str, Any]] = {}
    for origin, names in sorted(by_origin.items()):
        res = real_parse(origin, [argvs[n] for n in names], ns.work)
        for n, r in zip(names, res):
            origin_parse[n] = r
            report["cases"][n] = {"origin": origin, "argv": argvs[n], "origin_ok": r["ok"],
                                  "origin_error": r.get("error"), "targets": {}}
            if not r["ok"]:
                print(f"[fixcheck] {n}: INVALID at its origin {origin}: {r.get('error')}", file=sys.stderr)
    valid = {n: cases[n] for n in cases if origin_parse[n]["ok"]}

    # 2.-4. fix, parse at target, compare
    for t in ns.targets:
        fixed = run_fix(valid, t, ns.unsafe_fixes, ns.db)
        names = list(valid)
        fixed_argv = {n: serve_argv(fixed[n]["fixed"]) or [] for n in names}
        res = real_parse(t, [fixed_argv[n] for n in names], ns.work)
        for n, r in zip(names, res):
            o = origin_parse[n]
            rem = fixed[n]["remaining"]
            row: dict[str, Any] = {
                "fixed_argv": fixed_argv[n], "changed": fixed_argv[n] != argvs[n],
                "accepted": r["ok"], "error": r.get("error"), "validate_error": r.get("validate_error"),
                "remaining": [f"{f.get('code')} {f.get('severity')}: {f.get('message')}" for f in rem],
                "class": classify(r["ok"], rem),
                "errors_left": sum(f.get("severity") == "error" for f in rem),
                "attributed": attributed(r.get("error_full") or r.get("error") or "", rem),
            }
            if r["ok"]:
                oset = flatten(o["namespace"], o["given"])
                tall = flatten(r["namespace"], r["given"], explicit_only=False)
                texp = flatten(r["namespace"], r["given"])
                gone = dropped_dests(argvs[n], fixed_argv[n], o["given"])
                row["settings"] = compare_settings(oset, tall, aliases, gone, texp)
            report["cases"][n]["targets"][t] = row
            flag = row["class"]
            s = row.get("settings") or {}
            if s.get("differ") or s.get("lost"):
                flag += " MEANING-CHANGED"
            print(f"[fixcheck] {t} {n}: {flag} {r.get('error') or ''}", file=sys.stderr)
    table = markdown(report)
    if ns.json:
        ns.json.write_text(json.dumps(report, indent=1, sort_keys=True, default=repr) + "\n")
    if ns.markdown:
        ns.markdown.write_text(table)
    print(table)
    return 0


def summarise(report: dict[str, Any]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for c in report["cases"].values():
        for t, row in c["targets"].items():
            s = out.setdefault(t, {"cases": 0, "changed": 0, "accepted": 0, "reported": 0, "bug": 0,
                                   "accepted_flagged": 0, "reported_attributed": 0,
                                   "settings_agree": 0, "settings_differ": 0, "settings_dropped": 0,
                                   "settings_lost": 0, "meaning_kept": 0, "compared": 0})
            s["cases"] += 1
            s["changed"] += bool(row["changed"])
            s[row["class"]] += 1
            s["accepted_flagged"] += row["class"] == "accepted" and bool(row.get("errors_left"))
            s["reported_attributed"] += row["class"] == "reported" and bool(row.get("attributed"))
            st = row.get("settings")
            if st is not None:
                s["compared"] += 1
                s["settings_agree"] += len(st["agree"])
                s["settings_differ"] += len(st["differ"])
                s["settings_dropped"] += len(st["dropped"])
                s["settings_lost"] += len(st["lost"])
                s["meaning_kept"] += not st["differ"] and not st["lost"]
    return out


def markdown(report: dict[str, Any]) -> str:
    invalid = [n for n, c in report["cases"].items() if not c["origin_ok"]]
    rows = ["| target | cases | fixed (changed) | accepted (of which still flagged as error) "
            "| rejected, reported (finding names the rejected option) | rejected, NOT reported (bug) "
            "| meaning kept / compared | settings agree / differ / dropped / lost |",
            "|---|---|---|---|---|---|---|---|"]
    for t, s in summarise(report).items():
        rows.append(f"| {t} | {s['cases']} | {s['changed']} | {s['accepted']} ({s['accepted_flagged']}) | "
                    f"{s['reported']} ({s['reported_attributed']}) | {s['bug']} | "
                    f"{s['meaning_kept']}/{s['compared']} | {s['settings_agree']} / {s['settings_differ']} / "
                    f"{s['settings_dropped']} / {s['settings_lost']} |")
    text = "\n".join(rows) + "\n"
    n = len(report["cases"])
    text += f"\n{n} cases, {n - len(invalid)} accepted by their origin release"
    if invalid:
        text += f" (rejected at origin: {', '.join(invalid)})"
    return text + ".\n"


if __name__ == "__main__":
    sys.exit(main())
