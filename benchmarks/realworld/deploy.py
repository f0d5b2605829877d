"""Deployment files written by others, linted as found (issue 15).

``deploy-manifest.tsv`` names each file by repository, commit and path; their content is never
committed. This script writes them into ``<scratch>/deploy/<owner>+<name>/<path>`` (default
scratch ``/work/scratch/realworld``), from a local mirror of the repository when one is given
(``--mirrors DIR`` holding ``<owner>+<name>/repo``, a bare git directory) or else from
``raw.githubusercontent.com`` at the recorded commit, then lints every file with no target
release (each file's own image tags and pins decide, as for a user) and writes
``<scratch>/findings-deploy.jsonl``. ``judge.py deploy`` compares it with the judged rows.

    python benchmarks/realworld/deploy.py [--mirrors /work/.mirror] [--scratch DIR]
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import lint_folder, write_findings  # noqa: E402


def manifest() -> list[dict]:
    with open(HERE / "deploy-manifest.tsv", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def materialise(row: dict, dest: Path, mirrors: Path | None) -> None:
    if dest.exists():
        return
    data = None
    if mirrors is not None:
        git_dir = mirrors / row["repo"].replace("/", "+") / "repo"
        if git_dir.exists():
            data = subprocess.run(["git", "-C", str(git_dir), "show", f"{row['commit']}:{row['path']}"],
                                  capture_output=True, check=True).stdout
    if data is None:
        import requests

        url = f"https://raw.githubusercontent.com/{row['repo']}/{row['commit']}/{row['path']}"
        resp = requests.get(url, timeout=30)
        resp.raise_for_status()
        data = resp.content
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(data)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scratch", default=os.environ.get("VLLM_LINT_SCRATCH", "/work/scratch/realworld"))
    ap.add_argument("--mirrors", default=None, help="folder of <owner>+<name>/repo git mirrors")
    args = ap.parse_args(argv)
    root = Path(args.scratch) / "deploy"
    mirrors = Path(args.mirrors) if args.mirrors else None
    files = []
    for row in manifest():
        dest = root / row["repo"].replace("/", "+") / row["path"]
        materialise(row, dest, mirrors)
        files.append(dest)
    found = lint_folder(root, files=files)
    for f in found:
        f["repo"] = f["path"].split("/", 1)[0].replace("+", "/")
    write_findings(Path(args.scratch) / "findings-deploy.jsonl", found)
    by = Counter(f["code"] for f in found)
    print(f"{len(files)} files, {len(found)} findings  " + " ".join(f"{c}:{n}" for c, n in sorted(by.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
