"""Issue 31's speed targets in one run, each a ratio to a baseline run in turn with it.

Every round runs the baseline, then each subject (``--lint``, and with ``--compare`` the same
command from another install, e.g. the code before a change), so load from other jobs on the
machine hits both alike; a figure is the median of the per-round ratios, with [min-max]. CPU is
user + system of the finished process and its children, wall a monotonic clock, peak memory the
largest process (``run.py``'s measure and wrapper).

    python benchmarks/targets.py --scratch DIR [--lint BIN] [--compare BIN] [--rounds 7]
                                 [--only startup,dense,monorepo,copies,precommit,site,db] [--sizes 2000,10000,50000]
                                 [--copies 1,5,25]

``copies``: the monorepo's ratio to the floor on copies of one generated tree (``--sizes``' first,
``--copies`` times, ``trees.py copies``): the same mix at every scale, so the ratio is flat unless
some work grows with the tree (the generator's own trees change their mix with their size).

``BIN`` is a ``vllm-lint`` executable of a regular install (default: ``run.py``'s install in
``benchmarks/.venv``); the baselines run with the Python next to it. The trees are written by
``trees.py`` into ``DIR`` (never into the repository); ``--precommit-bin`` names a ``pre-commit``
executable for the pre-commit share. Results: ``--out`` (default ``benchmarks/results/targets.json``,
gitignored).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run  # noqa: E402  (measure, peak_rss_mb, _env, regular_install)
import trees  # noqa: E402

GOALS = {  # issue 31's goal of each figure (a ratio or MiB; lower is better)
    "startup one.yaml": 1.15, "startup one.sh": 1.0, "startup Dockerfile": 1.0, "startup one.py": 1.0,
    "dense cpu / floor": 4.0, "monorepo cpu / floor": 1.5, "copies cpu / floor": 1.5, "monorepo -j2 wall / -j1": 0.75,
    "monorepo warm / cold cpu": 0.12, "monorepo peak MiB": 50.0, "precommit share": 0.20,
    "site cpu / data": 5.0, "db cpu / untar": 2.0, "db peak MiB": 250.0,
}


def rounds(baseline, subjects: dict, n: int, prepare=None) -> dict:
    """``n`` rounds of the baseline then each subject (cmd, cwd, env); per subject the median
    [min, max] of its CPU and wall ratios to the same round's baseline, and medians of both."""
    samples: dict[str, list] = {"baseline": [], **{k: [] for k in subjects}}
    order = [("baseline", baseline), *subjects.items()]
    for r in range(n + 1):  # round 0 warms up (.pyc, page cache) and is not counted
        for name, (cmd, cwd, env) in order:
            if prepare:
                prepare(name)
            m = run.measure(cmd, cwd, env)
            if m["rc"] not in (0, 1):
                raise SystemExit(f"{name}: exit {m['rc']}: {m['err']}")
            if r:
                samples[name].append(m)
    out = {"baseline": _summary(samples["baseline"])}
    for name in subjects:
        out[name] = _summary(samples[name])
        for what in ("cpu", "wall"):
            ratios = [a[what] / b[what] for a, b in zip(samples[name], samples["baseline"])]
            out[name][f"{what}_ratio"] = [statistics.median(ratios), min(ratios), max(ratios)]
    return out


def _summary(ss: list) -> dict:
    return {"cpu_ms": 1000 * statistics.median(s["cpu"] for s in ss),
            "wall_ms": 1000 * statistics.median(s["wall"] for s in ss), "runs": len(ss)}


def _subjects(bins: dict, args: list, cwd: Path, env: dict) -> dict:
    return {name: ([str(b), *args], cwd, env) for name, b in bins.items()}


def startup(bins, py, n, env) -> dict:
    one = HERE / "corpus" / "one"
    if not one.is_dir():
        subprocess.run([sys.executable, str(HERE / "corpus.py")], check=True)
    out = {}
    for f in ("one.yaml", "one.sh", "Dockerfile", "one.py"):
        out[f"startup {f}"] = rounds(([py, "-c", "import click"], one, env),
                                     _subjects(bins, ["--no-cache", f], one, env), n)
    return out


def _floor(py: str, tree: Path, env) -> tuple:
    return ([py, str(HERE / "floor.py"), ".", "--jobs", "1"], tree, env)


def dense(bins, py, n, env, scratch: Path) -> dict:
    tree = scratch / "dense"
    files = trees.dense(tree)
    res = rounds(_floor(py, tree, env), _subjects(bins, ["--no-cache", "-j", "1", "--exit-zero", "--output-format",
                                                         "concise", "."], tree, env), n)
    return {"dense cpu / floor": {**res, "files": files}}


def monorepo(bins, py, n, env, scratch: Path, sizes: list[int]) -> dict:
    out = {}
    lint = ["--exit-zero", "--output-format", "concise", "."]
    for size in sizes:
        root = scratch / f"mono{size}"
        files = trees.monorepo(root, size)
        tree = root / "repo"
        k = max(3, n // 2) if size > 20000 else n
        out[f"monorepo cpu / floor {size}"] = {
            **rounds(_floor(py, tree, env), _subjects(bins, ["--no-cache", "-j", "1", *lint], tree, env), k),
            "files": files}
        for name, b in bins.items():  # -j 2 against -j 1 of the same install
            out[f"monorepo -j2 wall / -j1 {size} {name}"] = rounds(
                ([str(b), "--no-cache", "-j", "1", *lint], tree, env),
                {name: ([str(b), "--no-cache", "-j", "2", *lint], tree, env)}, k)
            cache = scratch / f"cache-{size}-{name}"
            cenv = {**env, "VLLM_LINT_CACHE_DIR": str(cache)}

            def fresh(which, cache=cache):
                if which == "baseline":  # the cold run writes a new cache; the warm run reads it
                    shutil.rmtree(cache, ignore_errors=True)

            out[f"monorepo warm / cold cpu {size} {name}"] = rounds(
                ([str(b), *lint], tree, cenv), {name: ([str(b), *lint], tree, cenv)}, k, prepare=fresh)
            out[f"monorepo peak MiB {size} {name}"] = {
                name: {"-j 1": run.peak_rss_mb([str(b), "--no-cache", "-j", "1", *lint], tree, env),
                       "default -j": run.peak_rss_mb([str(b), "--no-cache", *lint], tree, env)}}
    return out


def copies(bins, py, n, env, scratch: Path, size: int, counts: list[int]) -> dict:
    out = {}
    for k in counts:
        root = scratch / f"copies{size}x{k}"
        files = trees.copies(root, size, k)
        tree = root / "repo"
        out[f"copies cpu / floor {size}x{k}"] = {
            **rounds(_floor(py, tree, env), _subjects(bins, ["--no-cache", "-j", "1", "--exit-zero", "--output-format",
                                                             "concise", "."], tree, env), max(3, n // 2) if k > 5 else n),
            "files": files}
    return out


_HOOK = """repos:
- repo: local
  hooks:
  - id: vllm-lint
    name: vllm-lint
    entry: {lint} --force-exclude --exit-zero
    language: system
    types: [text]
"""


def precommit(bins, py, n, env, scratch: Path, precommit_bin: str) -> dict:
    """The share of a one-file ``git commit`` that the hook's lint is: the lint of the staged file
    (--no-cache: a changed file) against the commit that runs it through pre-commit."""
    out = {}
    for name, b in bins.items():
        repo = scratch / f"precommit-{name}"
        shutil.rmtree(repo, ignore_errors=True)
        shutil.copytree(HERE / "corpus" / "one", repo)
        g = ["git", "-C", str(repo)]
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        (repo / ".pre-commit-config.yaml").write_text(_HOOK.format(lint=b))
        genv = {**env, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com", "GIT_COMMITTER_NAME": "b",
                "GIT_COMMITTER_EMAIL": "b@example.com", "PRE_COMMIT_HOME": str(scratch / "pre-commit-home")}
        subprocess.run([*g, "add", "-A"], check=True, env=genv)
        subprocess.run([*g, "commit", "-q", "--no-verify", "-m", "init"], check=True, env=genv)
        subprocess.run([precommit_bin, "install"], cwd=repo, check=True, env=genv, capture_output=True)
        count = [0]

        def change(which, repo=repo, g=g, genv=genv):
            count[0] += 1
            with open(repo / "one.yaml", "a") as f:
                f.write(f"# change {count[0]}\n")
            subprocess.run([*g, "add", "one.yaml"], check=True, env=genv)

        out[f"precommit share {name}"] = rounds(
            (["git", "commit", "-q", "-m", "change"], repo, genv),
            {name: ([str(b), "--no-cache", "--force-exclude", "--exit-zero", "one.yaml"], repo, genv)}, n,
            prepare=change)
    return out


_LOAD_DB = ("import json, pathlib, sys\n"
            "d = pathlib.Path(sys.argv[1])\n"
            "for p in [d / 'index.json', *sorted((d / 'releases').glob('*.json'))]:\n"
            "    json.loads(p.read_bytes())\n")


def site(bins, py, n, env, scratch: Path) -> dict:
    db = Path(subprocess.run([py, "-c", "from vllm_lint.surface.db import default_db_path; print(default_db_path())"],
                             capture_output=True, text=True, check=True, env=env).stdout.strip())
    # Each build writes into a folder no earlier round used, and every round's tree is deleted only
    # after the last: as a CI job builds the site in a fresh checkout. (Deleting the previous
    # round's ~2,700 inodes just before a build made ext4 without a journal, which skips recently
    # freed inodes when it allocates, charge the build for the harness's own deletions: eighth pass.)
    parent = scratch / "site-out"
    shutil.rmtree(parent, ignore_errors=True)
    builds = iter(range(1_000_000))

    subjects = _subjects(bins, ["site", "build", ""], scratch, env)

    def fresh(which):
        if which in subjects:
            subjects[which][0][-1] = str(parent / str(next(builds)))

    try:
        return {"site cpu / data": rounds(([py, "-c", _LOAD_DB, str(db)], scratch, env), subjects, n,
                                          prepare=fresh)}
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def db_build(bins, py, n, env, scratch: Path, version: str) -> dict:
    sdist = Path(os.path.expanduser("~/.cache/vllm-lint/archives")) / f"vllm-{version}.tar.gz"
    if not sdist.is_file():
        return {"db cpu / untar": {"skipped": f"{sdist} is not cached (vllm-lint db build --versions {version} once)"}}
    dbdir, untar = scratch / "db-out", scratch / "untar-out"

    def fresh(which):
        for d in (dbdir, untar):
            shutil.rmtree(d, ignore_errors=True)
        untar.mkdir()

    res = rounds((["tar", "-xzf", str(sdist), "-C", str(untar)], scratch, env),
                 _subjects(bins, ["db", "build", "--versions", version, "--db-dir", str(dbdir), "-j", "1"],
                           scratch, env), n, prepare=fresh)
    peaks = {}
    for name, b in bins.items():
        fresh(name)
        peaks[name] = run.peak_rss_mb([str(b), "db", "build", "--versions", version, "--db-dir", str(dbdir), "-j", "1"],
                                      scratch, env)
    return {"db cpu / untar": {**res, "version": version}, "db peak MiB": peaks}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scratch", type=Path, required=True)
    ap.add_argument("--lint", type=Path, help="vllm-lint of a regular install (default: benchmarks/.venv)")
    ap.add_argument("--compare", type=Path, help="vllm-lint of another install, measured in the same rounds")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--only", default="startup,dense,monorepo,precommit,site,db")
    ap.add_argument("--sizes", default="2000,10000,50000")
    ap.add_argument("--copies", default="1,5,25", help="copies: how many copies of the first size's tree")
    ap.add_argument("--db-version", default="0.34.0")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "targets.json")
    ap.add_argument("--precommit-bin", default=shutil.which("pre-commit") or "pre-commit")
    a = ap.parse_args()
    lint = a.lint or run.regular_install(HERE / ".venv").parent / "vllm-lint"
    bins = {"after": lint.resolve(), **({"before": a.compare.resolve()} if a.compare else {})}
    py = str(lint.parent / "python")
    env = run._env(None)
    a.scratch.mkdir(parents=True, exist_ok=True)
    only = set(a.only.split(","))
    res: dict = {}
    n = a.rounds
    if "startup" in only:
        res.update(startup(bins, py, n, env))
    if "dense" in only:
        res.update(dense(bins, py, n, env, a.scratch))
    if "monorepo" in only:
        res.update(monorepo(bins, py, n, env, a.scratch, [int(s) for s in a.sizes.split(",")]))
    if "copies" in only:
        res.update(copies(bins, py, n, env, a.scratch, int(a.sizes.split(",")[0]), [int(c) for c in a.copies.split(",")]))
    if "precommit" in only:
        res.update(precommit(bins, py, n, env, a.scratch, a.precommit_bin))
    if "site" in only:
        res.update(site(bins, py, n, env, a.scratch))
    if "db" in only:
        res.update(db_build(bins, py, max(3, n // 2), env, a.scratch, a.db_version))
    out = a.out
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"machine": run.machine(), "load": os.getloadavg(), "results": res}, indent=1))
    for key, r in res.items():
        goal = next((g for k, g in GOALS.items() if key.startswith(k)), None)
        print(f"{key}   (goal <= {goal})" if goal is not None else key)
        for name, s in r.items():
            if isinstance(s, dict) and "cpu_ratio" in s:
                c, w = s["cpu_ratio"], s["wall_ratio"]
                print(f"  {name:8s} cpu {c[0]:.3f} [{c[1]:.2f}-{c[2]:.2f}]  wall {w[0]:.3f} [{w[1]:.2f}-{w[2]:.2f}]  "
                      f"({s['cpu_ms']:.0f} ms cpu, baseline {r['baseline']['cpu_ms']:.0f})")
            elif name not in ("baseline",):
                print(f"  {name}: {s}")


if __name__ == "__main__":
    main()
