"""Recall on a real tree: the launches vllm-lint reads over the launches a person finds there.

The judged list (``launches-<release>.tsv``: path, line, kind, reason) holds the real launch
command lines of vLLM's own ``docs/``, ``examples/`` and ``docker/`` of one release's sdist, one
row per launch at the line where its command starts (``vllm serve``, ``LLM(``, ``docker run``,
a container's ``args``, a Dockerfile's ``CMD``); ``reason`` is empty for a launch that must be
read, else why it is not (a documented limitation). A launch counts as read when ``vllm-lint
--verbose`` reports a launch of that file within ``WINDOW`` lines (a YAML container's launch
starts at its first key, a Python call's at the call; each reported launch matches one row).

    python benchmarks/realworld/recall.py TREE                 # read / present, each unread named
    python benchmarks/realworld/recall.py TREE --candidates    # lines to judge (not a judgement)

TREE is the unpacked sdist (``vllm-0.27.1/``), fetched through ``vllm_lint.scrape.sources``
into a scratch folder, never into the repository. Exit 1 when a launch without a reason is not
read or the ratio is under ``TARGET``.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET = 0.97
WINDOW = 6
_CHECKED = re.compile(r"^(?P<path>.+?): checked against vLLM \S+ \(.*\) at line (?P<line>\d+)$")
_CANDIDATE = re.compile(
    r"(?<![\w/.-])vllm\s+serve\b|-m\s+vllm\.entrypoints\.(?:openai\.)?api_server|(?<![\w.])(?:LLM|EngineArgs|"
    r"AsyncEngineArgs)\(|\bdynamo\.vllm\b|vllm/vllm-openai|\bdocker\s+run\b")
SUBDIRS = ("docs", "examples", "docker")


def read_launches(tree: Path, release: str) -> dict[str, list[int]]:
    """{path relative to the tree: [line of each launch read]} from one ``vllm-lint -v`` run."""
    dirs = [str(tree.resolve() / d) for d in SUBDIRS if (tree / d).is_dir()]
    if not dirs:
        raise SystemExit(f"{tree}: none of {', '.join(SUBDIRS)} there: give the unpacked sdist's own folder")
    cmd = [sys.executable, "-m", "vllm_lint", "--no-cache", "--verbose", "--output-format", "json", "-t", release, *dirs]
    # run inside the tree, without this repository's configuration: a `--config FILE` of a
    # launch is looked up next to the file and in the working directory
    env = dict(os.environ, VLLM_LINT_NO_CONFIG="1")
    err = subprocess.run(cmd, capture_output=True, text=True, cwd=tree, env=env).stderr
    out: dict[str, list[int]] = defaultdict(list)
    for line in err.splitlines():
        m = _CHECKED.match(line)
        if m and Path(m["path"]).resolve().is_relative_to(tree.resolve()):
            out[Path(m["path"]).resolve().relative_to(tree.resolve()).as_posix()].append(int(m["line"]))
    return out


def judged(release: str) -> list[dict[str, str]]:
    with open(HERE / f"launches-{release}.tsv", newline="", encoding="utf-8") as f:
        return [row for row in csv.DictReader((ln for ln in f if not ln.startswith("#")), delimiter="\t")]


def match(rows: list[dict[str, str]], read: dict[str, list[int]]) -> list[tuple[dict[str, str], bool]]:
    """Each judged row with whether a reported launch of its file lies within WINDOW lines; the
    nearest free reported launch is taken, so two rows never share one."""
    free = {p: sorted(lines) for p, lines in read.items()}
    out = []
    for row in sorted(rows, key=lambda r: (r["path"], int(r["line"]))):
        lines = free.get(row["path"], [])
        line = int(row["line"])
        near = [x for x in lines if abs(x - line) <= WINDOW]
        if near:
            best = min(near, key=lambda x: (abs(x - line), x))
            lines.remove(best)
        out.append((row, bool(near)))
    return out


def candidates(tree: Path) -> None:
    for d in SUBDIRS:
        for p in sorted((tree / d).rglob("*")):
            if not p.is_file():
                continue
            try:
                text = p.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            for i, line in enumerate(text.splitlines(), 1):
                if _CANDIDATE.search(line):
                    print(f"{p.relative_to(tree).as_posix()}\t{i}\t{line.strip()[:120]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tree", type=Path)
    ap.add_argument("--release", default="0.27.1")
    ap.add_argument("--candidates", action="store_true")
    a = ap.parse_args()
    if a.candidates:
        candidates(a.tree)
        return 0
    rows = judged(a.release)
    result = match(rows, read_launches(a.tree, a.release))
    present = len(result)
    got = sum(1 for _r, ok in result if ok)
    unexplained = 0
    for row, ok in result:
        if not ok:
            why = row["reason"] or "NOT READ, NO REASON"
            unexplained += not row["reason"]
            print(f"unread  {row['path']}:{row['line']}  {row['kind']}  ({why})")
    print(f"read {got} of {present} launches ({got / present:.1%}); target {TARGET:.0%}; "
          f"{unexplained} unread without a reason")
    return 0 if got / present >= TARGET and not unexplained else 1


if __name__ == "__main__":
    sys.exit(main())
