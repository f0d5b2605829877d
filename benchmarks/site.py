"""Site build time as a ratio to loading every release surface once (issue 20; target <= 5x).

Both in fresh processes of the same interpreter, interleaved, CPU time (user + sys of the child)
and wall time, medians over ``--runs`` rounds after one uncounted warm-up:

- baseline: ``Database()`` and every release's surface built from its whole file;
- subject: ``vllm-lint site build OUT`` into a new folder, on tmpfs (``/dev/shm``: the generator's
  own cost) and on the disk holding the temporary directory (file creation included);
- for reference, the cost of creating the same files on that disk alone: a bare loop writing the
  built site's files (same paths, same bytes; one ``mkdir`` per folder, one open and write per
  file), so the disk case can be read as generator + this machine's file creation.

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

# every release file decoded whole and its surface built (``surface(v)`` alone reads a file in
# pieces, as a lint does: the site reads every piece)
BASELINE = ("from vllm_lint.surface.db import Database, Surface\n"
            "db = Database()\n"
            "for v in db.versions:\n    Surface(dict(db.surface(v).record.items()))\n")

# argv: the built site to copy, the new folder
TREE = ("import os, sys\n"
        "src, out = sys.argv[1], sys.argv[2]\n"
        "files = []\n"
        "for d, _, names in os.walk(src):\n"
        "    for n in names:\n"
        "        p = os.path.join(d, n)\n"
        "        with open(p, 'rb') as f:\n"
        "            files.append((os.path.relpath(p, src), f.read()))\n"
        "files.sort()\n"
        "import resource, time\n"
        "r0 = resource.getrusage(resource.RUSAGE_SELF)\n"
        "t0 = time.perf_counter()\n"
        "os.mkdir(out)\n"
        "made = {''}\n"
        "for rel, data in files:\n"
        "    parts = rel.split(os.sep)[:-1]\n"
        "    for k in range(1, len(parts) + 1):\n"
        "        sub = os.path.join(*parts[:k])\n"
        "        if sub not in made:\n"
        "            os.mkdir(os.path.join(out, sub))\n"
        "            made.add(sub)\n"
        "    fd = os.open(os.path.join(out, rel), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)\n"
        "    os.write(fd, data)\n"
        "    os.close(fd)\n"
        "r1 = resource.getrusage(resource.RUSAGE_SELF)\n"
        "print(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime, time.perf_counter() - t0)\n")


def measure(cmd: list[str], env: dict) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, out


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
    cases = {"baseline": None, **{f"build ({k})": v for k, v in places.items()}, "files alone (disk)": "tree"}
    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in cases}
    load_start = os.getloadavg()
    reference = Path(tempfile.mkdtemp(prefix="vllm-lint-site-ref-"))
    subprocess.run([sys.executable, "-m", "vllm_lint", "site", "build", str(reference / "site")], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    try:
        for rnd in range(args.runs + 1):
            for name, where in cases.items():
                if where is None:
                    cmd = [sys.executable, "-c", BASELINE]
                    out = None
                elif where == "tree":
                    out = Path(tempfile.mkdtemp(prefix="vllm-lint-site-", dir=places["disk"])) / "site"
                    cmd = [sys.executable, "-c", TREE, str(reference / "site"), str(out)]
                else:
                    out = Path(tempfile.mkdtemp(prefix="vllm-lint-site-", dir=where)) / "site"
                    cmd = [sys.executable, "-m", "vllm_lint", "site", "build", str(out)]
                cpu, wall, printed = measure(cmd, env)
                if where == "tree":  # the writing alone, not reading the reference copy
                    cpu, wall = map(float, printed.split())
                if out is not None:
                    shutil.rmtree(out.parent)
                if rnd:  # round 0 warms the page cache and writes .pyc files
                    samples[name].append((cpu, wall))
    finally:
        shutil.rmtree(reference)
    base_cpu = statistics.median(c for c, _ in samples["baseline"])
    base_wall = statistics.median(w for _, w in samples["baseline"])
    result = {"runs": args.runs, "load_average": {"start": load_start, "end": os.getloadavg()}, "cases": {}}
    for name, ss in samples.items():
        cpu, wall = statistics.median(c for c, _ in ss), statistics.median(w for _, w in ss)
        result["cases"][name] = {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3),
                                 "cpu_ratio": round(cpu / base_cpu, 2), "wall_ratio": round(wall / base_wall, 2)}
        print(f"{name:18s} cpu {cpu:6.2f} s ({cpu / base_cpu:4.1f}x)   wall {wall:6.2f} s ({wall / base_wall:4.1f}x)")
    print("load average", load_start, "->", result["load_average"]["end"])
    res = Path(__file__).parent / "results"
    res.mkdir(exist_ok=True)
    (res / "site.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
