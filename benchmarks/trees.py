"""The trees of issue 31's speed targets, written into a scratch folder (never into the repository).

- ``dense``: the rule fixtures of ``tests/rules/VL*/`` (their inputs: no snapshots, no fixed
  copies, no harness settings) copied ``--copies`` times (default 9: ~2,300 files, nearly each a
  launch).
- ``monorepo``: ``corpus.py``'s generator at ``--files`` files (a mixed repository in which ~12 %
  mention vLLM), as a ``git init`` work tree so that ``.gitignore`` and ``.git/info/exclude`` are
  honoured as in a real checkout.

    python benchmarks/trees.py dense OUT [--copies 9]
    python benchmarks/trees.py monorepo OUT --files 10000
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=("dense", "monorepo"))
    ap.add_argument("out", type=Path)
    ap.add_argument("--copies", type=int, default=9)
    ap.add_argument("--files", type=int, default=10000)
    a = ap.parse_args()
    n = dense(a.out, a.copies) if a.kind == "dense" else monorepo(a.out, a.files)
    print(f"{n} files in {a.out}")


if __name__ == "__main__":
    main()
