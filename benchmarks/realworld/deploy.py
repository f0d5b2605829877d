"""Deployment files written by others, linted as found (issue 15).

``deploy-manifest.tsv`` names each file by repository, commit and path, and its ``set``: empty
for the files the fixes were measured on, ``heldout`` for files chosen afterwards and linted
blind (an independent-style check); their content is never committed. This script writes the
files of one set into ``<scratch>/deploy/<owner>+<name>/<path>`` (default scratch
``/work/scratch/realworld``), from a local mirror of the repository when one is given
(``--mirrors DIR`` holding ``<owner>+<name>/repo``, a bare git directory), from a folder of files
fetched by hand at the recorded commit (``--fetched DIR``, same layout as the scratch folder) or
else from ``raw.githubusercontent.com`` at the recorded commit, then lints every file with no
target release (each file's own image tags and pins decide, as for a user) and writes
``<scratch>/findings-deploy.jsonl`` (``findings-deploy-heldout.jsonl`` for ``--set heldout``).
``judge.py deploy`` (``deploy-heldout``) compares it with the judged rows.

    python benchmarks/realworld/deploy.py [--set heldout] [--mirrors /work/.mirror] [--fetched DIR] [--scratch DIR]
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


def materialise(row: dict, dest: Path, mirrors: Path | None, fetched: Path | None = None) -> None:
    if dest.exists():
        return
    data = None
    if fetched is not None:
        local = fetched / row["repo"].replace("/", "+") / row["path"]
        if local.is_file():
            data = local.read_bytes()
    if data is None and mirrors is not None:
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
    ap.add_argument("--fetched", default=None, help="folder of <owner>+<name>/<path> files fetched at their commit")
    ap.add_argument("--set", default="", choices=["", "heldout"], help="which files of the manifest (default: measured)")
    args = ap.parse_args(argv)
    root = Path(args.scratch) / "deploy"
    mirrors = Path(args.mirrors) if args.mirrors else None
    fetched = Path(args.fetched) if args.fetched else None
    files = []
    for row in manifest():
        if (row.get("set") or "") != args.set:
            continue
        dest = root / row["repo"].replace("/", "+") / row["path"]
        materialise(row, dest, mirrors, fetched)
        files.append(dest)
    found = lint_folder(root, files=files)
    for f in found:
        f["repo"] = f["path"].split("/", 1)[0].replace("+", "/")
    write_findings(Path(args.scratch) / f"findings-deploy{'-' + args.set if args.set else ''}.jsonl", found)
    by = Counter(f["code"] for f in found)
    print(f"{len(files)} files, {len(found)} findings  " + " ".join(f"{c}:{n}" for c, n in sorted(by.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
