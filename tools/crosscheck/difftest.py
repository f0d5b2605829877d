"""Differential tester: vllm-lint against the REAL ``vllm serve`` parser, line by line.

Maintainer tool; not part of the default tests (the pure parts are tested offline in
``tests/tools/test_difftest_logic.py``). For each release:

1. the real parser is built once in a worker (``difftest_worker.py`` in the release venv of
   ``run.py``: the release's own CLI ``main()`` up to ``parse_args``, vLLM's argv preprocessing
   included) and kept running;
2. seeded command lines are generated (``difftest_gen.py``: ``realistic`` from units mined from
   real files, ``edge`` from the edge categories), parsed by the worker and linted in-process at
   the same release (``vllm serve <line>`` as a shell script);
3. verdicts are compared (the real parser refuses / vllm-lint reports an error-level VL1xx
   or VL410 finding) and, where both refuse and argparse names a culprit, whether a finding names it; a
   line the parser accepts and start-up refuses for certain (the worker's ``start_error``, see
   ``difftest_start.py``: ``validate_parsed_serve_args`` included) counts as refused like a
   parser refusal, and where lint refuses it too, whether a finding names the refused option is
   measured with the culprits;
4. each disagreement is shrunk to a minimal line (whole units removed while the disagreement
   keeps its direction) and the distinct minimal examples are listed.

    .venv/bin/python tools/crosscheck/difftest.py 0.8.5 0.13.0 --work /work/scratch/xc \\
        [-n 2000] [--seed 0] [--db flag_db] [--json out.json] [--markdown out.md]

Seeds: line ``i`` of generator ``g`` at release ``v`` uses seed ``hash((seed, g, i))`` computed
with ``zlib.crc32`` (stable across runs and Pythons).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO))

import difftest_gen as gen  # noqa: E402

UNITS_FILE = HERE / "realistic_units.json"


# ----------------------------------------------------------------------------------------------
# the real parser


class RealParser:
    def __init__(self, version: str, work: Path):
        import fixcheck

        venv, src, stubs = fixcheck.release_env(version, work)
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "VLLM_TARGET_DEVICE": "cpu",
               "TOKENIZERS_PARALLELISM": "false"}
        env.pop("PYTHONPATH", None)
        cmd = [str(venv / "bin" / "python"), str(HERE / "difftest_worker.py"), str(src)]
        for s in stubs:
            cmd += ["--stub", s]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, env=env, cwd=str(work), bufsize=1)
        hello = json.loads(self.proc.stdout.readline() or "{}")
        if not hello.get("ready"):
            raise SystemExit(f"{version}: worker failed: {hello}")
        self.entry = hello.get("entry")
        self.memo: dict[tuple[str, ...], dict[str, Any]] = {}

    def parse(self, argv: list[str]) -> dict[str, Any]:
        key = tuple(argv)
        if key not in self.memo:
            self.memo[key] = self.ask(argv)
        return self.memo[key]

    def ask(self, req: Any) -> dict[str, Any]:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def parse_drawn(self, argv: list[str], vary: dict[str, Any]) -> list[dict[str, Any]]:
        """The line parsed with each choice list another process of the release may draw."""
        return [self.ask({"argv": list(argv), "choices": {string: ch}})
                for string, v in vary.items() for ch in v["choices"]]

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except Exception:  # noqa: BLE001
            self.proc.kill()


# ----------------------------------------------------------------------------------------------
# vllm-lint, in-process


def choices_vary_of(version: str, work: Path, processes: int) -> dict[str, Any]:
    """The options whose choice list differs between worker processes of the release (0.8.5
    draws a ``Literal`` from a set of type hints, in an order that changes by process):
    ``{option string: {"strings": [...], "choices": [list, ...]}}``, from ``processes`` workers
    (each with its own random hash seed), cached in ``<work>/difftest-choices-vary-<v>.json``."""
    cache = work / f"difftest-choices-vary-{version}.json"
    if cache.exists():
        doc = json.loads(cache.read_text())
        if doc.get("processes", 0) >= processes:
            return doc["options"]
    seen: dict[str, dict[str, Any]] = {}
    for _ in range(processes):
        worker = RealParser(version, work)
        try:
            lists = worker.ask({"op": "choices"})["choices"]
        finally:
            worker.close()
        for key, v in lists.items():
            entry = seen.setdefault(key, {"strings": v["strings"], "choices": []})
            if v["choices"] not in entry["choices"]:
                entry["choices"].append(v["choices"])
    found = {k: v for k, v in sorted(seen.items()) if len(v["choices"]) > 1}
    cache.write_text(json.dumps({"processes": processes, "options": found}, indent=1, sort_keys=True))
    for k, v in found.items():
        print(f"[difftest] {version}: {k} takes one of {len(v['choices'])} choice lists by process",
              file=sys.stderr)
    return found


class Lint:
    def __init__(self, version: str, db_dir: Optional[Path]):
        from vllm_lint.pipeline.engine import Linter
        from vllm_lint.rules.base import select_rules
        from vllm_lint.settings import Settings
        from vllm_lint.surface.db import Database

        self.db = Database(db_dir) if db_dir else Database()
        self.version = version
        self.linter = Linter(self.db, Settings(target_version=version), select_rules([], []))
        self.surface = self.db.surface(version)
        self.memo: dict[tuple[str, ...], tuple[bool, list[Any]]] = {}
        self.warned: dict[tuple[str, ...], list[Any]] = {}

    def canonical(self, option_string: str) -> Optional[str]:
        opt = self.surface.lookup(option_string)
        return opt.name if opt else None

    def lint(self, argv: list[str]) -> tuple[bool, list[Any]]:
        key = tuple(argv)
        if key not in self.memo:
            data = ("vllm serve " + shlex.join(argv) + "\n").encode()
            self.linter.verbose = []
            diags = self.linter.analyse(Path("difftest.sh"), data, mode="auto", fmt="shell").diagnostics
            # VL1xx and VL410: the rules whose errors say the release refuses (indep/verdict.py)
            errors = [d for d in diags if d.severity == "error" and (d.code.startswith("VL1") or d.code == "VL410")]
            self.memo[key] = (bool(errors), errors)
            self.warned[key] = [d for d in diags if d.severity != "error"]
        return self.memo[key]

    def warnings(self, argv: list[str]) -> list[Any]:
        self.lint(argv)
        return self.warned[tuple(argv)]


# ----------------------------------------------------------------------------------------------
# pure helpers (tested offline)

_ARGUMENT = re.compile(r"^argument ([^:]+): ")
_UNRECOGNIZED = re.compile(r"^unrecognized arguments: (.*)")
_AMBIGUOUS = re.compile(r"^ambiguous option: ([^\s=]+)")


def culprit(error: Optional[str]) -> Optional[list[str]]:
    """The option strings argparse blames in its error line (the first it met), or None."""
    if not error:
        return None
    m = _ARGUMENT.match(error)
    if m:
        return [s.strip() for s in m.group(1).split("/") if s.strip()]
    m = _UNRECOGNIZED.match(error)
    if m:
        words = shlex.split(m.group(1)) if m.group(1).count("'") % 2 == 0 else m.group(1).split()
        return [words[0].split("=")[0]] if words else None
    m = _AMBIGUOUS.match(error)
    if m:
        return [m.group(1)]
    if "--model" in error and "positional" in error:
        return ["--model"]
    return None


def _spelling(word: str) -> str:
    """A word as vLLM's argv preprocessing may have rewritten it before argparse complained
    (``--a_b.c_d`` is reported as ``--a-b.c-d`` by some releases): compared without ``_``/``-``."""
    return word.split("=")[0].replace("_", "-")


def left_over(error: Optional[str]) -> Optional[str]:
    """The words of argparse's "unrecognized arguments:" as it printed them (joined by spaces,
    quotes lost: `[1, 2] true` is two words, not three)."""
    m = _UNRECOGNIZED.match(error or "")
    return m.group(1) if m else None


def names_culprit(findings: list[Any], blamed: list[str], canonical: Optional[str],
                  error: Optional[str] = None) -> bool:
    """Does an error finding name the blamed option (its canonical name, a string argparse lists,
    or the word as written in the message)? A left-over word with a space in it is named by a
    finding that quotes the whole word the message starts with."""
    rest = left_over(error)
    if rest is not None and any(w and (rest == w or rest.startswith(w + " "))
                                for d in findings for w in re.findall(r"`([^`]+)`", d.message)):
        return True
    wanted = {_spelling(b) for b in blamed} | {_spelling(b).split(".")[0] for b in blamed if b.startswith("--")}
    for d in findings:
        if d.option and (d.option in blamed or d.option == canonical or _spelling(d.option) in wanted):
            return True
        quoted = re.findall(r"`([^`]+)`", d.message)
        for q in quoted:
            head = q.split("=")[0]
            if head in blamed or head.split(".")[0] in blamed or canonical and head == canonical \
                    or _spelling(head) in wanted:
                return True
    return False


def error_class(rec: dict[str, Any]) -> Optional[str]:
    """What a refusal is about, for shrinking: the culprit argparse names, else the error's text
    up to its first colon (None when the parser accepts)."""
    if rec.get("ok"):
        return None
    blamed = culprit(rec.get("error"))
    if blamed:
        return _spelling(blamed[0])
    return (rec.get("error") or "").split(":")[0]


def seed_of(seed: int, generator: str, i: int) -> int:
    return zlib.crc32(f"{seed}:{generator}:{i}".encode())


def verdict_kind(real_rejects: bool, lint_rejects: bool) -> str:
    if real_rejects == lint_rejects:
        return "agree"
    return "missed" if real_rejects else "false-alarm"


def classify(rec: dict[str, Any], lint_rejects: bool, findings: list[Any], canonical_of: Any) -> str:
    """The verdict of one line: ``agree`` / ``missed`` / ``false-alarm``, where vLLM refuses a
    line when its parser does or, after the parser accepts it, start-up refuses it for certain
    (the worker's ``start_error``: ``validate_parsed_serve_args`` and the model-free steps of
    ``create_engine_config``); those count like any refusal (issue 29). Whether lint names the
    option start-up refuses is the culprit measurement's business (``start_culprit``)."""
    return verdict_kind(not rec["ok"] or bool(rec.get("start_error")), lint_rejects)


def refused(rec: dict[str, Any]) -> bool:
    """vLLM refuses the line: its parser, or start-up for certain."""
    return not rec["ok"] or bool(rec.get("start_error"))


def varying(rec: dict[str, Any], drawn: list[dict[str, Any]], lint_rejects: bool, warnings: list[Any],
            vary: dict[str, Any]) -> Optional[str]:
    """A line whose verdict differs between the choice lists processes of the release draw
    (``drawn``: the line parsed with each): no verdict is right for every process, so it agrees
    only where vllm-lint says so, without refusing, in a warning that names the option whose
    choices vary: ``"varies-said"`` / ``"varies-unsaid"``; None where every process agrees."""
    if len({refused(r) for r in [rec, *drawn]}) < 2:
        return None
    strings = [s for v in vary.values() for s in v["strings"]]
    said = not lint_rejects and names_culprit(warnings, strings, None)
    return "varies-said" if said else "varies-unsaid"


def start_refused(rec: dict[str, Any]) -> bool:
    """The parser accepts and start-up refuses for certain."""
    return bool(rec.get("ok") and rec.get("start_error"))


def start_culprit(rec: dict[str, Any], findings: list[Any], canonical_of: Any) -> Optional[bool]:
    """Where the parser accepts, start-up refuses an option and lint refuses too: whether a
    finding names that option (None where there is nothing to measure)."""
    start = rec.get("start_error") if rec.get("ok") else None
    if not start or not start.get("options") or not findings:
        return None
    return names_culprit(findings, start["options"], canonical_of(start["options"][0]))


def shrink(line: list[list[str]], still: Any) -> list[list[str]]:
    """Greedy unit removal: drop each unit while ``still(flattened)`` holds; then try to drop
    single trailing value words of multi-word units."""
    cur = [list(u) for u in line]
    changed = True
    while changed:
        changed = False
        for i in range(len(cur)):
            cand = cur[:i] + cur[i + 1:]
            if still(gen.flatten(cand)):
                cur, changed = cand, True
                break
    return cur


# ----------------------------------------------------------------------------------------------
# driver


def run_release(version: str, ns: argparse.Namespace, voc: gen.Vocabulary, units: dict[str, Any]) -> dict[str, Any]:
    vary = choices_vary_of(version, ns.work, ns.vary_processes) if ns.vary_processes else {}
    real = RealParser(version, ns.work)
    lint = Lint(version, ns.db)
    target = voc.releases[version]
    res: dict[str, Any] = {"entry": real.entry, "generators": {}, "choices_vary": vary}
    t0 = time.time()
    try:
        for g in ("realistic", "edge"):
            st = {"lines": 0, "agree": 0, "missed": 0, "false-alarm": 0, "start-refused": 0,
                  "varies-said": 0, "varies-unsaid": 0,
                  "culprit_checked": 0, "culprit_agree": 0, "examples": {},
                  "culprit_misses": {}}
            for i in range(ns.n):
                s = seed_of(ns.seed, g, i)
                line = gen.realistic(units, s) if g == "realistic" else gen.edge(voc, target, s)
                argv = gen.flatten(line)
                r = real.parse(argv)
                l_rej, findings = lint.lint(argv)
                st["lines"] += 1
                v_kind = varying(r, real.parse_drawn(argv, vary), l_rej, lint.warnings(argv), vary) \
                    if vary else None
                if v_kind is not None:
                    st[v_kind] += 1
                    if v_kind == "varies-unsaid":
                        key = shlex.join(argv)
                        ex = st["examples"].setdefault(key, {"kind": v_kind, "count": 0, "seed": s,
                                                             "real": r.get("error"), "start": _start_text(r),
                                                             "lint": [f"{d.code} {d.message}" for d in findings]})
                        ex["count"] += 1
                    continue
                kind = classify(r, l_rej, findings, lint.canonical)
                st[kind] += 1
                st["start-refused"] += start_refused(r)
                if kind != "agree":
                    # the smaller line must disagree the same way about the same refusal
                    def still(a: list[str], _k=kind, _c=error_class(r)) -> bool:
                        ra = real.parse(a)
                        la = lint.lint(a)
                        return classify(ra, la[0], la[1], lint.canonical) == _k and error_class(ra) == _c
                    small = gen.flatten(shrink(line, still))
                    key = shlex.join(small)
                    rs = real.parse(small)
                    ex = st["examples"].setdefault(key, {"kind": kind, "count": 0, "seed": s,
                                                         "real": rs.get("error"),
                                                         "start": _start_text(rs),
                                                         "lint": [f"{d.code} {d.message}" for d in lint.lint(small)[1]]})
                    ex["count"] += 1
                elif start_refused(r) and l_rej:
                    named = start_culprit(r, findings, lint.canonical)
                    if named is not None:
                        st["culprit_checked"] += 1
                        st["culprit_agree"] += named
                        if not named:
                            st["culprit_misses"][shlex.join(argv)] = {
                                "real": _start_text(r), "lint": [f"{d.code} {d.message}" for d in findings]}
                elif not r["ok"]:
                    blamed = culprit(r.get("error"))
                    if blamed:
                        st["culprit_checked"] += 1
                        opt = lint.surface.lookup(blamed[0])
                        if names_culprit(findings, blamed, opt.name if opt else None, r.get("error")):
                            st["culprit_agree"] += 1
                        else:
                            key = shlex.join(argv)
                            st["culprit_misses"][key] = {"real": r.get("error"),
                                                         "lint": [f"{d.code} {d.message}" for d in findings]}
            res["generators"][g] = st
            print(f"[difftest] {version} {g}: {agreement(st)[0]}/{agreement(st)[1]} agree, {st['missed']} missed, "
                  f"{st['false-alarm']} false alarms, {st['start-refused']} refused by start-up (counted), "
                  f"verdict by process {st['varies-said']} said / {st['varies-unsaid']} not said, "
                  f"culprit {st['culprit_agree']}/{st['culprit_checked']}, "
                  f"{len(st['examples'])} minimal examples ({time.time() - t0:.0f}s)", file=sys.stderr)
    finally:
        real.close()
    return res


def _start_text(rec: dict[str, Any]) -> Optional[str]:
    st = rec.get("start_error")
    if not st:
        return None
    key = f".{st['key']}" if st.get("key") else ""
    return f"{st['option']}{key} ({st['step']}): {st['error']}"


def agreement(st: dict[str, Any]) -> tuple[int, int]:
    """(agreeing lines, lines measured): every line, start-up refusals included; a line whose
    verdict depends on the process agrees where vllm-lint says so (:func:`varying`)."""
    return st["agree"] + st.get("varies-said", 0), st["lines"]


def run_sweep(version: str, ns: argparse.Namespace, voc: gen.Vocabulary) -> dict[str, Any]:
    """Every option of the release with the sweep's values (``difftest_gen.sweep``): verdicts per
    line, and each disagreement with the real parser's error and vllm-lint's findings."""
    real = RealParser(version, ns.work)
    lint = Lint(version, ns.db)
    st: dict[str, Any] = {"lines": 0, "agree": 0, "missed": 0, "false-alarm": 0, "disagreements": []}
    try:
        for line in gen.sweep(voc.releases[version]):
            argv = gen.flatten(line)
            r = real.parse(argv)
            l_rej, findings = lint.lint(argv)
            kind = verdict_kind(not r["ok"], l_rej)
            st["lines"] += 1
            st[kind] += 1
            if kind != "agree":
                st["disagreements"].append({"kind": kind, "line": shlex.join(argv), "real": r.get("error"),
                                            "lint": [f"{d.code} {d.message}" for d in findings]})
    finally:
        real.close()
    print(f"[difftest] {version} sweep: {st['agree']}/{st['lines']} agree, {st['missed']} missed, "
          f"{st['false-alarm']} false alarms", file=sys.stderr)
    return st


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}" if b else "-"


def markdown(results: dict[str, Any], n: int, seed: int) -> str:
    rows = [f"| release | realistic agree % ({n} lines) | edge agree % ({n} lines) | culprit agree % "
            "(both refuse, argparse or start-up names one) | missed / false alarms (realistic + edge) | "
            "refused by start-up, counted (realistic + edge) |",
            "|---|---|---|---|---|---|"]
    for v, r in results.items():
        if "error" in r:
            rows.append(f"| {v} | error: {r['error'][:60]} | | | | |")
            continue
        re_, ed = r["generators"]["realistic"], r["generators"]["edge"]
        ca = re_["culprit_agree"] + ed["culprit_agree"]
        cc = re_["culprit_checked"] + ed["culprit_checked"]
        rows.append(f"| {v} | {pct(*agreement(re_))} | {pct(*agreement(ed))} | "
                    f"{pct(ca, cc)} ({ca}/{cc}) | {re_['missed'] + ed['missed']} / "
                    f"{re_['false-alarm'] + ed['false-alarm']} | "
                    f"{re_.get('start-refused', 0)} + {ed.get('start-refused', 0)} |")
    varying = [f"{v} {g} {r['generators'][g].get('varies-said', 0)} said, "
               f"{r['generators'][g].get('varies-unsaid', 0)} not said"
               for v, r in results.items() if "error" not in r for g in ("realistic", "edge")
               if r["generators"][g].get("varies-said") or r["generators"][g].get("varies-unsaid")]
    note = ("\nLines whose real verdict depends on the process (an option's choices drawn by process; "
            "agreeing only where vllm-lint says so): " + "; ".join(varying) + ".\n") if varying else ""
    return "\n".join(rows) + f"\n{note}\nseed {seed}\n"


def mine(dirs: list[Path], db_dir: Path, out: Path) -> None:
    """Write ``realistic_units.json`` from the ``vllm serve`` lines of the documents, scripts and
    YAML files under ``dirs`` (extracted sdists' ``docs/`` and ``examples/``, deployment files)."""
    voc = gen.load_vocabulary(db_dir)

    def takes_value(s: str) -> Optional[Any]:
        o = voc.by_string.get(s)
        if o is None:
            return None
        if o.get("kind") in ("switch", "negatable"):
            return False
        return "many" if o.get("nargs") in ("+", "*") else True

    texts = []
    for d in dirs:
        for p in sorted(d.rglob("*")):
            if p.suffix in (".md", ".sh", ".yaml", ".yml", ".rst", ".txt", "") and p.is_file() and p.stat().st_size < 500_000:
                try:
                    texts.append(p.read_text(encoding="utf-8", errors="replace"))
                except OSError:
                    continue
    doc = gen.mine_units(texts, takes_value)
    out.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"[difftest] {len(doc['units'])} distinct units, {sum(c for _, c in doc['units'])} occurrences, "
          f"{len(doc['models'])} models from {len(texts)} files", file=sys.stderr)


#: entries whose argv is vLLM's server command line: ``vllm serve``, the api_server module, the
#: arguments of a vllm-openai image (``docker:<image>``), of a chart that passes them through
_SERVE_ENTRIES = ("vllm serve", "api_server", "openai.api_server")
_SERVE_ENTRY_PREFIXES = ("docker:", "kubeai:", "production-stack:extraArgs")


def launch_units(launch: Any, args: list[Any]) -> tuple[Optional[str], list[tuple[str, ...]]]:
    """(model, units) of one argv launch as vllm-lint split it (``ArgvParser``): each option with
    its value words as written; units holding a word whose value is unknown (a variable, a
    template) or that may expand to many words are dropped, and so is a wrapper's own option."""
    model, units = None, []
    for a in args:
        if not a.tokens or any(t.opaque or t.splat or "`" in t.text for t in a.tokens):
            continue  # unknown values, and inline code of prose read past its closing backtick
        words = tuple(t.text for t in a.tokens)
        if a.positional and a.how == "positional" and a.canonical == "<model>":
            model = words[0]
            continue
        if a.canonical == "--model" and len(words) == 2 and model is None:
            model = words[1]
        if a.how == "stray" or words[0].split("=")[0] in gen.EXCLUDED or a.canonical == "--model":
            continue  # `--model` belongs to the api_server's lines; the edge generator has its forms
        units.append(words)
    return model, units


def mine_real(scratch: Path, out: Path) -> None:
    """Write ``realistic_units.json`` from the files the precision measurement judged
    (``benchmarks/realworld``): vLLM's ``docs/``, ``examples/``, ``docker/`` of ten releases under
    ``<scratch>/docs/<release>/`` (each read at its own release) and the deployment files of
    ``deploy-manifest.tsv`` under ``<scratch>/deploy/`` (each at the release its tags and pins
    name). The launches and their units are what vllm-lint's front-ends extract; each distinct unit
    is counted once per launch it appears in."""
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    db = Database()
    counts: dict[tuple[str, ...], int] = {}
    models: dict[str, int] = {}
    sources: dict[str, int] = {}
    manifest = REPO / "benchmarks" / "realworld" / "deploy-manifest.tsv"
    deploy = [scratch / "deploy" / f"{r['repo'].replace('/', '+')}" / r["path"]
              for r in _tsv(manifest)]
    groups: list[tuple[str, Optional[str], list[Path]]] = [("deploy", None, [p for p in deploy if p.is_file()])]
    for rel in sorted((scratch / "docs").iterdir()):
        if rel.is_dir():
            groups.append((rel.name, rel.name, sorted(p for p in rel.rglob("*") if p.is_file())))
    for name, target, files in groups:
        linter = Linter(db, Settings(target_version=target), select_rules([], []))
        n = 0
        for p in files:
            try:
                data = p.read_bytes()
            except OSError:
                continue
            if len(data) > 2_000_000:
                continue
            try:
                analysis = linter.analyse(p, data, mode="auto")
            except Exception:  # noqa: BLE001 - a miner skips what it cannot read
                continue
            for la in analysis.launches:
                entry = la.launch.entry
                if la.launch.style != "argv" or not (entry in _SERVE_ENTRIES or entry.startswith(_SERVE_ENTRY_PREFIXES)):
                    continue
                model, units = launch_units(la.launch, la.args)
                if model and not model.startswith(("-", "/bin/", "/usr/")):
                    models[model] = models.get(model, 0) + 1
                for u in set(units):
                    counts[u] = counts.get(u, 0) + 1
                n += 1
        sources[name] = n
    doc = {"sources": sources, "models": sorted(models) or gen.MODELS,
           "units": [[list(k), c] for k, c in sorted(counts.items())]}
    out.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"[difftest] {len(doc['units'])} distinct units, {sum(c for _, c in doc['units'])} occurrences, "
          f"{len(doc['models'])} models from {sum(sources.values())} launches {sources}", file=sys.stderr)


def _tsv(path: Path) -> list[dict[str, str]]:
    lines = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    head = lines[0].split("\t")
    return [dict(zip(head, ln.split("\t"))) for ln in lines[1:]]


def main(argv: Optional[list[str]] = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["--mine"]:
        mine([Path(a) for a in argv[1:]], REPO / "flag_db", UNITS_FILE)
        return 0
    if argv[:1] == ["--mine-real"]:
        mine_real(Path(argv[1]) if len(argv) > 1 else Path("/work/scratch/realworld"), UNITS_FILE)
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("versions", nargs="+")
    ap.add_argument("--work", type=Path, default=Path("/tmp"))
    ap.add_argument("--db", type=Path, default=None, help="flag database (default: vllm-lint's own)")
    ap.add_argument("-n", type=int, default=2000, help="lines per generator and release")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--units", type=Path, default=UNITS_FILE)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--markdown", type=Path, default=None)
    ap.add_argument("--vary-processes", type=int, default=6,
                    help="workers started once per release (cached in the work folder) to find choice "
                         "lists that vary by process; 0: not looked for")
    ap.add_argument("--sweep", action="store_true",
                    help="instead of the generators: every option of the release with a fixed set of values")
    ns = ap.parse_args(argv)
    voc = gen.load_vocabulary(ns.db or REPO / "flag_db")
    units = json.loads(ns.units.read_text())
    results: dict[str, Any] = {}
    for v in ns.versions:
        try:
            results[v] = run_sweep(v, ns, voc) if ns.sweep else run_release(v, ns, voc, units)
        except SystemExit as e:
            results[v] = {"error": str(e)}
            print(f"[difftest] {v}: FAILED {e}", file=sys.stderr)
        if ns.json:
            ns.json.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    if ns.sweep:
        for v, r in results.items():
            print(f"{v}: {r.get('agree')}/{r.get('lines')} agree" if "error" not in r else f"{v}: {r['error']}")
            for d in r.get("disagreements", []):
                print(f"    {d['kind']}: {d['line']} | real: {d['real']} | lint: {d['lint']}")
        return 0
    table = markdown(results, ns.n, ns.seed)
    if ns.markdown:
        ns.markdown.write_text(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
