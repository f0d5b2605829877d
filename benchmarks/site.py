"""Site build time as a ratio to loading every release surface once (issue 20; target <= 5x).

Both in fresh processes of the same interpreter, interleaved, CPU time (user + sys of the child)
and wall time, medians over ``--runs`` rounds after one uncounted warm-up:

- baseline: ``Database()`` and ``surface(v)`` for every release;
- subject: ``vllm-lint site build OUT`` into a new folder, on tmpfs (``/dev/shm``: the generator's
  own cost) and on the disk holding the temporary directory (file creation included).

    python benchmarks/site.py --runs 5 [--db DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASELINE = ("from vllm_lint.surface.db import Database\n"
            "db = Database()\n"
            "for v in db.versions:\n    db.surface(v)\n")


def measure(cmd: list[str], env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--db", type=Path)
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if args.db:
        env["VLLM_LINT_DB"] = str(args.db)
    places = {"tmpfs": Path("/dev/shm")} if Path("/dev/shm").is_dir() else {}
    places["disk"] = Path(tempfile.gettempdir())
    cases = {"baseline": None, **{f"build ({k})": v for k, v in places.items()}}
    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in cases}
    for rnd in range(args.runs + 1):
        for name, where in cases.items():
            if where is None:
                cmd = [sys.executable, "-c", BASELINE]
                out = None
            else:
                out = Path(tempfile.mkdtemp(prefix="vllm-lint-site-", dir=where)) / "site"
                cmd = [sys.executable, "-m", "vllm_lint", "site", "build", str(out)]
            cpu, wall = measure(cmd, env)
            if out is not None:
                shutil.rmtree(out.parent)
            if rnd:  # round 0 warms the page cache and writes .pyc files
                samples[name].append((cpu, wall))
    base_cpu = statistics.median(c for c, _ in samples["baseline"])
    base_wall = statistics.median(w for _, w in samples["baseline"])
    result = {"runs": args.runs, "load_average": os.getloadavg(), "cases": {}}
    for name, ss in samples.items():
        cpu, wall = statistics.median(c for c, _ in ss), statistics.median(w for _, w in ss)
        result["cases"][name] = {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3),
                                 "cpu_ratio": round(cpu / base_cpu, 2), "wall_ratio": round(wall / base_wall, 2)}
        print(f"{name:14s} cpu {cpu:6.2f} s ({cpu / base_cpu:4.1f}x)   wall {wall:6.2f} s ({wall / base_wall:4.1f}x)")
    res = Path(__file__).parent / "results"
    res.mkdir(exist_ok=True)
    (res / "site.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
