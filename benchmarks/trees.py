"""The trees of issue 31's speed targets, written into a scratch folder (never into the repository).

- ``dense``: the rule fixtures of ``tests/rules/VL*/`` (their inputs: no snapshots, no fixed
  copies, no harness settings) copied ``--copies`` times (default 9: ~2,300 files, nearly each a
  launch).
- ``monorepo``: ``corpus.py``'s generator at ``--files`` files (a mixed repository in which ~12 %
  mention vLLM), as a ``git init`` work tree so that ``.gitignore`` and ``.git/info/exclude`` are
  honoured as in a real checkout. The generator's mix changes with its size (its Python files are
  the standard library's, at most ~460; its 30 folders grow with it): a 10k tree is not five 2k
  trees (benchmarks/README.md, sixth pass).
- ``copies``: ``--copies`` copies of the generator's tree at ``--files`` files, in one repository
  (``copy0/`` ...): the same mix and folder sizes at every scale, so that a ratio that grows with the
  copies is work that grows with the tree. ``--ignore-files`` puts a ``.gitignore`` in every folder
  (what discovery's ignore rules cost).

    python benchmarks/trees.py dense OUT [--copies 9]
    python benchmarks/trees.py monorepo OUT --files 10000
    python benchmarks/trees.py copies OUT --files 2000 --copies 5 [--ignore-files]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULES = HERE.parent / "tests" / "rules"
_NOT_INPUT = (".snap", ".fixed")


def dense(out: Path, copies: int = 9) -> int:
    """``copies`` copies of every rule fixture input; the number of files written."""
    if out.exists():
        shutil.rmtree(out)
    n = 0
    for folder in sorted(RULES.glob("VL*")):
        for src in sorted(folder.rglob("*")):
            if not src.is_file() or src.name.endswith(_NOT_INPUT) or src.name == "harness.toml":
                continue
            rel = src.relative_to(RULES)
            for c in range(copies):
                dst = out / f"copy{c}" / rel
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dst)
                n += 1
    return n


def monorepo(out: Path, files: int) -> int:
    """A generated repository of about ``files`` files, as a git work tree."""
    sys.path.insert(0, str(HERE))
    import corpus

    info = corpus.generate(out, scale=files / sum(corpus.COUNTS.values()))
    shutil.rmtree(out / "one")
    subprocess.run(["git", "init", "-q", str(out / "repo")], check=True)
    return info["files"]


def copies(out: Path, files: int, copies: int, ignore_files: bool = False) -> int:
    """``copies`` copies of the generated ``files``-file repository in one git work tree ``out/repo``."""
    one = out / "one-copy"
    monorepo(one, files)
    repo = out / "repo"
    if repo.exists():
        shutil.rmtree(repo)
    n = 0
    for c in range(copies):
        shutil.copytree(one / "repo", repo / f"copy{c}", ignore=shutil.ignore_patterns(".git"))
    shutil.rmtree(one)
    for d in [repo, *(p for p in repo.rglob("*") if p.is_dir())]:
        if ignore_files:
            (d / ".gitignore").write_text("*.tmp\nbuild/\n")
        n += sum(1 for p in d.iterdir() if p.is_file())
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=("dense", "monorepo", "copies"))
    ap.add_argument("out", type=Path)
    ap.add_argument("--copies", type=int, default=9)
    ap.add_argument("--files", type=int, default=10000)
    ap.add_argument("--ignore-files", action="store_true", help="copies: a .gitignore in every folder")
    a = ap.parse_args()
    if a.kind == "dense":
        n = dense(a.out, a.copies)
    elif a.kind == "monorepo":
        n = monorepo(a.out, a.files)
    else:
        n = copies(a.out, a.files, a.copies, a.ignore_files)
    print(f"{n} files in {a.out}")


if __name__ == "__main__":
    main()
