"""The independent differential tester: vllm-lint against the real ``vllm serve`` parser, with
generators of its own (``gen_docs``, ``gen_grammar``), its own verdict comparison (``verdict``)
and its own shrinker (``shrink``). A maintainer's tool, not in the test suite.

    .venv/bin/python tools/crosscheck/indep/run.py 0.8.5 0.27.1 --work /work/scratch/xc \
        [-n 600] [--seed 0] [--db DIR] [--json out.json] [--markdown out.md]
    .venv/bin/python tools/crosscheck/indep/run.py --from-json out.json [--markdown out.md]
    .venv/bin/python tools/crosscheck/indep/run.py [RELEASES] --work DIR --choice-stability 1 2 3

Releases must be built by ``tools/crosscheck/run.py`` (``<work>/xc-venv-<v>``, ``<work>/xc-src-<v>``).
The grammar of each built release is cached in ``<work>/indep-grammar-<v>.json`` (``--refresh``).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_docs  # noqa: E402
import gen_grammar  # noqa: E402
import settle  # noqa: E402
import shrink  # noqa: E402
import verdict  # noqa: E402

BUILT = ["0.6.6.post1", "0.7.3", "0.8.5", "0.9.2", "0.10.2", "0.11.0", "0.13.0", "0.20.0", "0.24.0",
         "0.27.1", "0.33.0"]


def log(msg: str) -> None:
    print(f"[indep {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class Oracle:
    """A running ``oracle.py`` in a release venv; missing modules are stubbed one at a time."""

    def __init__(self, version: str, work: Path, hash_seed: str = "0"):
        self.version = version
        venv, src = work / f"xc-venv-{version}", work / f"xc-src-{version}"
        if not (venv / "bin" / "python").exists() or not src.is_dir():
            raise SystemExit(f"{version}: not built in {work} (run tools/crosscheck/run.py {version})")
        stubs: list[str] = []
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "VLLM_TARGET_DEVICE": "cpu",
               "TOKENIZERS_PARALLELISM": "false", "OMP_NUM_THREADS": "1",
               # 0.8.5 draws a choice list from a set of Literal types (its order: hashes, addresses)
               "PYTHONHASHSEED": hash_seed}
        env.pop("PYTHONPATH", None)
        for _ in range(30):
            cmd = ["nice", "-n", "10", str(venv / "bin" / "python"), str(HERE / "oracle.py"), str(src)]
            for s in stubs:
                cmd += ["--stub", s]
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, env=env,
                                         cwd=src)  # docs' relative paths are written from the sdist's root
            first = json.loads(self.proc.stdout.readline() or '{"error": "oracle died"}')
            if first.get("ready"):
                self.entry = first["entry"]
                return
            self.proc.wait()
            missing = first.get("missing_module")
            if not missing:
                raise SystemExit(f"{version}: oracle failed: {first.get('error')}")
            top = missing if missing.startswith("vllm.") else missing.split(".")[0]
            if top in stubs:
                raise SystemExit(f"{version}: stubbing {top} did not help")
            stubs.append(top)
        raise SystemExit(f"{version}: too many missing modules")

    def ask(self, req: dict[str, Any]) -> dict[str, Any]:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:  # a thread of vLLM's keeps some releases alive
            self.proc.kill()
            self.proc.wait()


def grammar_of(version: str, work: Path, refresh: bool, oracle: Optional[Oracle] = None) -> dict[str, Any]:
    cache = work / f"indep-grammar-{version}.json"
    if cache.exists() and not refresh:
        return json.loads(cache.read_text())
    own = oracle is None
    oracle = oracle or Oracle(version, work)
    g = oracle.ask({"op": "grammar"})
    if own:
        oracle.close()
    cache.write_text(json.dumps(g, indent=0, sort_keys=True))
    return g


def choices_vary_of(version: str, work: Path, processes: int, grammar: dict[str, Any]) -> dict[str, Any]:
    """The options whose choices differ between oracle processes of the release (vLLM 0.8.5 draws
    a ``Literal`` from a set of type hints, so which of two lists an option gets changes from
    process to process): ``{option string: {"strings": [...], "choices": [list, ...]}}``, read from
    ``grammar`` (the cached one) and ``processes`` more oracles (hash seeds 1..N), cached in
    ``<work>/indep-choices-vary-<v>.json`` with the number of processes it saw."""
    cache = work / f"indep-choices-vary-{version}.json"
    if cache.exists():
        doc = json.loads(cache.read_text())
        if doc.get("processes", 0) >= processes:
            return doc["options"]
    grammars = [grammar]
    for k in range(1, processes + 1):
        o = Oracle(version, work, hash_seed=str(k))
        grammars.append(o.ask({"op": "grammar"}))
        o.close()
    lists: dict[str, list[Any]] = defaultdict(list)
    strings: dict[str, list[str]] = {}
    for g in grammars:
        for a in g["actions"]:
            if a["strings"] and a["choices"] is not None:
                key = max(a["strings"], key=len)
                strings[key] = a["strings"]
                if a["choices"] not in lists[key]:
                    lists[key].append(a["choices"])
    found = {k: {"strings": strings[k], "choices": v} for k, v in sorted(lists.items()) if len(v) > 1}
    cache.write_text(json.dumps({"processes": processes, "options": found}, indent=1, sort_keys=True))
    for k, v in found.items():
        log(f"{version}: {k} takes one of {len(v['choices'])} choice lists by process")
    return found


class Judge:
    """Both verdicts of one argv at one release, memoised. A false alarm whose every lint error
    names an option the release's start-up refuses for certain (``oracle.py`` ``start``) is
    ``post-parse`` ("post-parse: both refuse"), left out of the agreement's denominator. Where an
    option's choices vary by process (``vary``, :func:`choices_vary_of`), the line is parsed with
    each list too; a line whose verdict differs between them is ``varies-said`` /
    ``varies-unsaid`` (``verdict.compare_varying``)."""

    def __init__(self, oracle: Oracle, version: str, db: Optional[str], vary: Optional[dict[str, Any]] = None):
        self.oracle, self.version, self.db = oracle, version, db
        self.vary = vary or {}
        self.memo: dict[tuple[str, ...], tuple[dict, dict, dict]] = {}

    def __call__(self, argv: list[str]) -> tuple[dict, dict, dict]:
        key = tuple(argv)
        if key not in self.memo:
            real = self.oracle.ask({"op": "parse", "argv": list(argv)})
            mine = verdict.lint(list(argv), self.version, self.db)
            c = None
            for string, v in self.vary.items():
                others = [self.oracle.ask({"op": "parse", "argv": list(argv), "choices": {string: ch}})
                          for ch in v["choices"]]
                c = verdict.compare_varying(real, others, mine, set(v["strings"]))
                if c is not None:
                    break
            if c is not None:
                self.memo[key] = (real, mine, c)
                return self.memo[key]
            c = verdict.compare(real, mine)
            if c["kind"] == "false-alarm" and not real["refused"]:
                start = self.oracle.ask({"op": "start", "argv": list(argv)})
                c["start"] = start
                if settle.settles(mine["errors"], start.get("certain") or [], verdict.names_culprit):
                    c["kind"] = "post-parse"
            self.memo[key] = (real, mine, c)
        return self.memo[key]

    def same_problem(self, kind: str) -> Any:
        def still(argv: list[str]) -> bool:
            _, _, c = self(argv)
            if kind == "culprit":
                return c["kind"] == "agree" and c["culprit"] is False
            return c["kind"] == kind
        return still


def run_generator(name: str, lines: list[tuple[list[str], str]], judge: Judge, shrink_cap: int) -> dict[str, Any]:
    counts: Counter = Counter()
    by_tag: dict[str, Counter] = defaultdict(Counter)
    problems: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}
    shrunk_for: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}
    post_parse: list[dict[str, Any]] = []
    for argv, tag in lines:
        real, mine, c = judge(argv)
        if c["kind"] == "post-parse":
            post_parse.append({"line": list(argv), "tag": tag,
                               "lint": [f"{e['code']} {e['message']}" for e in mine["errors"]],
                               "start": c["start"]["certain"]})
        counts["lines"] += 1
        counts[c["kind"]] += 1
        by_tag[tag]["lines"] += 1
        by_tag[tag][c["kind"]] += 1
        if real["refused"] and not verdict.environmental(real):
            counts["real_refused"] += 1
        if c["culprit"] is not None:
            counts["culprit_measured"] += 1
            counts["culprit_named"] += bool(c["culprit"])
        if c["kind"] == "varies-said":
            continue
        kind = c["kind"] if c["kind"] != "agree" else ("culprit" if c["culprit"] is False else None)
        if kind is None:
            continue
        key = (kind, tuple(argv))
        if key not in shrunk_for:
            if len(shrunk_for) < shrink_cap:
                shrunk_for[key] = tuple(shrink.ddmin(list(argv), judge.same_problem(kind)))
            else:
                shrunk_for[key] = tuple(argv)
        small = shrunk_for[key]
        pk = (kind, small)
        if pk not in problems:
            sreal, smine, sc = judge(list(small))
            start = sc.get("start") or {}
            problems[pk] = {"kind": kind, "line": list(small), "example": list(argv), "tag": tag, "count": 0,
                            "real": sreal.get("message"), "stage": sreal.get("stage"),
                            "lint": [f"{e['code']} {e['message']}" for e in smine["errors"]],
                            "lint_other_errors": [f"{e['code']} {e['message']}" for e in smine["other_errors"]],
                            "start_certain": [f"{x['step']} {x['dest']}: {x['why']}: {x['message']}"
                                              for x in start.get("certain") or []],
                            "start_failures": [f"{x['step']}: {x['message']}" for x in start.get("failures") or []]}
        problems[pk]["count"] += 1
    return {"generator": name, "counts": dict(counts), "by_tag": {k: dict(v) for k, v in by_tag.items()},
            "post_parse": post_parse,
            "problems": sorted(problems.values(), key=lambda p: (-p["count"], p["kind"], p["line"]))}


def pct(a: int, b: int) -> str:
    return "n/a" if not b else f"{100.0 * a / b:.1f}"


def measured(counts: dict[str, int]) -> int:
    """The agreement's denominator: every line (issue 29: what vLLM refuses after parsing counts
    as a refusal, not set aside)."""
    return counts.get("lines", 0)


def agreed(counts: dict[str, int]) -> int:
    """The agreement's numerator: lines judged alike, those both refuse after parsing included,
    and lines whose real verdict depends on the process where vllm-lint says so."""
    return counts.get("agree", 0) + counts.get("post-parse", 0) + counts.get("varies-said", 0)


def markdown(results: list[dict[str, Any]], n: int, seed: int) -> str:
    out = [f"| release | docs lines | realistic-docs agree % (as written / mutated) | missed / false alarms | "
           f"post-parse: both refuse (counted as agreeing) | oracle-grammar agree % | missed / false alarms | "
           f"post-parse: both refuse (counted) | "
           f"culprit named % (named / measured) |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        d, g = r["docs"]["counts"], r["grammar"]["counts"]
        tags = r["docs"]["by_tag"]
        aw = tags.get("as-written", {})
        mut = Counter()
        for t, c in tags.items():
            if t != "as-written":
                mut.update(c)
        cm = d.get("culprit_measured", 0) + g.get("culprit_measured", 0)
        cn = d.get("culprit_named", 0) + g.get("culprit_named", 0)
        out.append(f"| {r['release']} | {r['docs_lines']} | {pct(agreed(d), measured(d))} "
                   f"({pct(agreed(aw), measured(aw))} / {pct(agreed(mut), measured(mut))}) | "
                   f"{d.get('missed', 0)} / {d.get('false-alarm', 0)} | {d.get('post-parse', 0)} | "
                   f"{pct(agreed(g), measured(g))} | "
                   f"{g.get('missed', 0)} / {g.get('false-alarm', 0)} | {g.get('post-parse', 0)} | "
                   f"{pct(cn, cm)} ({cn} / {cm}) |")
    varying = [(r["release"], gen, r[gen]["counts"]) for r in results for gen in ("docs", "grammar")
               if r[gen]["counts"].get("varies-said") or r[gen]["counts"].get("varies-unsaid")]
    if varying:
        out.append("")
        out.append("Lines whose real verdict depends on the process (an option's choices drawn by process; "
                   "agreeing only where vllm-lint says so): "
                   + "; ".join(f"{v} {gen} {c.get('varies-said', 0)} said, {c.get('varies-unsaid', 0)} not said"
                               for v, gen, c in varying) + ".")
    out.append("")
    out.append(f"-n {n} per generator and release, seed {seed}.")
    out.append("")
    out.append("Minimal disagreements (kind, lines, generator, minimal line | real parser | vllm-lint errors):")
    out.append("")
    for r in results:
        for gen in ("docs", "grammar"):
            for p in r[gen]["problems"]:
                real = (p["real"] or "accepted")[:160]
                lint = "; ".join(x[:120] for x in p["lint"]) or "silent"
                line = " ".join(shlex.quote(w) for w in p["line"])[:160]
                out.append(f"- {r['release']} {p['kind']} x{p['count']} {gen}: `{line}` | {real} | {lint}")
                for x in p.get("start_certain") or []:
                    out.append(f"  - start refuses: {x[:240]}")
    return "\n".join(out) + "\n"


def choice_stability(releases: list[str], work: Path, seeds: list[str]) -> list[dict[str, Any]]:
    """Options whose choices differ between oracle processes started with these hash seeds (vLLM
    draws a Literal from a set of type hints: a Union of two Literals gives either's values)."""
    out = []
    for version in releases:
        by_seed = {}
        for s in seeds:
            o = Oracle(version, work, hash_seed=s)
            g = o.ask({"op": "grammar"})
            o.close()
            by_seed[s] = {max(a["strings"], key=len): a["choices"] for a in g["actions"] if a["strings"]}
        names = sorted(set().union(*[set(v) for v in by_seed.values()]))
        for name in names:
            seen = {s: by_seed[s].get(name) for s in seeds}
            if len({json.dumps(v) for v in seen.values()}) > 1:
                out.append({"release": version, "option": name, "choices_by_hash_seed": seen})
                log(f"{version}: {name} choices differ between oracle processes: {seen}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("releases", nargs="*", default=BUILT)
    ap.add_argument("--work", type=Path, default=Path("/tmp"))
    ap.add_argument("-n", type=int, default=600)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--db", default=None, help="flag database directory given to vllm_lint (default: shipped)")
    ap.add_argument("--refresh", action="store_true", help="re-read the grammars of the releases")
    ap.add_argument("--shrink-cap", type=int, default=80, help="disagreements shrunk per release and generator")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--markdown", type=Path)
    ap.add_argument("--from-json", type=Path, help="only render the markdown of an earlier --json")
    ap.add_argument("--vary-processes", type=int, default=6,
                    help="oracle processes started once per release (cached) to find choices that vary "
                         "by process; 0: not looked for")
    ap.add_argument("--choice-stability", nargs="+", metavar="HASHSEED",
                    help="only list the options whose choices differ between these PYTHONHASHSEEDs")
    ns = ap.parse_args()
    if ns.choice_stability:
        found = choice_stability(ns.releases, ns.work.resolve(), ns.choice_stability)
        if ns.json:
            ns.json.write_text(json.dumps(found, indent=1))
        print(json.dumps(found, indent=1))
        return 0
    if ns.from_json:
        doc = json.loads(ns.from_json.read_text())
        md = markdown(doc["results"], doc["n"], doc["seed"])
        if ns.markdown:
            ns.markdown.write_text(md)
        print(md)
        return 0
    work = ns.work.resolve()
    built = [v for v in BUILT if (work / f"xc-venv-{v}").is_dir()]
    results = []
    for version in ns.releases:
        t0 = time.time()
        oracle = Oracle(version, work)
        grammar = grammar_of(version, work, ns.refresh, oracle)
        others = [grammar_of(v, work, False) for v in built if v != version]
        opts = gen_grammar.load(grammar)
        strings = {s for o in opts for s in o.strings}
        foreign, seen = [], set()
        for g in others:
            for o in gen_grammar.load(g):
                if not (set(o.strings) & strings) and o.name not in seen:
                    seen.add(o.name)
                    foreign.append(o)
        vary = choices_vary_of(version, work, ns.vary_processes, grammar) if ns.vary_processes else {}
        judge = Judge(oracle, version, ns.db, vary)
        docs = gen_docs.docs_lines(work / f"xc-src-{version}")
        docs_in = [gen_docs.line(docs, version, ns.seed, i, opts, foreign, gen_grammar.value_words)
                   for i in range(ns.n)] if docs else []
        gram_in = [(gen_grammar.line(grammar, others, version, ns.seed, i), "grammar") for i in range(ns.n)]
        res = {"release": version, "entry": oracle.entry, "docs_lines": len(docs),
               "docs": run_generator("docs", docs_in, judge, ns.shrink_cap),
               "grammar": run_generator("grammar", gram_in, judge, ns.shrink_cap)}
        oracle.close()
        res["seconds"] = round(time.time() - t0, 1)
        d, g = res["docs"]["counts"], res["grammar"]["counts"]
        log(f"{version}: docs {agreed(d)}/{measured(d)} grammar {agreed(g)}/{measured(g)} "
            f"post-parse {d.get('post-parse', 0)}+{g.get('post-parse', 0)} "
            f"culprit {d.get('culprit_named', 0) + g.get('culprit_named', 0)}/"
            f"{d.get('culprit_measured', 0) + g.get('culprit_measured', 0)} in {res['seconds']}s")
        results.append(res)
        if ns.json:
            ns.json.write_text(json.dumps({"seed": ns.seed, "n": ns.n, "results": results}, indent=1))
    md = markdown(results, ns.n, ns.seed)
    if ns.markdown:
        ns.markdown.write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
