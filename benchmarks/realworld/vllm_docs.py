"""vLLM's own docs, examples, README and docker files, linted at their own release (issue 15).

Opt-in and networked: the sdists come through the project's own PyPI source
(``vllm_lint.scrape.sources.PyPISource``, cached under its cache folder), and only ``docs/``,
``examples/``, ``README.md`` and ``docker/`` (and the top-level ``Dockerfile*`` of older releases)
are extracted, into a scratch folder outside the repository (default ``/work/scratch/realworld``,
``--scratch`` to change). Each release's folder is linted with ``-t <release>`` and JSON output;
the findings are written to ``<scratch>/findings-docs.jsonl`` and counted by code.

    python benchmarks/realworld/vllm_docs.py [--releases 0.8.5,0.33.0] [--scratch DIR]

``benchmarks/realworld/judge.py`` compares those findings with the judged rows.
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import sys
import tarfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import lint_folder, write_findings  # noqa: E402

#: Nine or more releases spread over 0.6-0.33 (each one's docs linted at its own release).
RELEASES = ["0.6.6.post1", "0.7.3", "0.8.5", "0.9.2", "0.10.2", "0.11.0", "0.13.0", "0.18.0", "0.25.0", "0.33.0"]

_KEEP_DIRS = ("docs/", "examples/", "docker/")
_KEEP_FILES = ("README.md",)


def _kept(rel: str) -> bool:
    if rel.startswith(_KEEP_DIRS) or rel in _KEEP_FILES:
        return True
    return "/" not in rel and rel.startswith("Dockerfile")


def extract(archive: Path, dest: Path) -> int:
    """Regular files under the kept folders, written below ``dest``; links and unsafe names skipped."""
    n = 0
    with tarfile.open(archive) as tf:
        for m in tf:
            if not m.isfile():
                continue
            parts = m.name.split("/", 1)
            if len(parts) != 2:
                continue
            rel = posixpath.normpath(parts[1])
            if rel.startswith(("/", "..")) or not _kept(rel):
                continue
            out = dest / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            fh = tf.extractfile(m)
            if fh is None:
                continue
            out.write_bytes(fh.read())
            n += 1
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--releases", default=",".join(RELEASES))
    ap.add_argument("--scratch", default=os.environ.get("VLLM_LINT_SCRATCH", "/work/scratch/realworld"))
    ap.add_argument("--no-lint", action="store_true", help="download and extract only")
    args = ap.parse_args(argv)

    from vllm_lint.scrape.sources import PyPISource

    scratch = Path(args.scratch)
    src = PyPISource()
    rows = []
    for rel in args.releases.split(","):
        dest = scratch / "docs" / rel
        if not (dest / ".extracted").exists():
            archive, _ = src.download(rel)
            if not archive.name.endswith((".tar.gz", ".tgz")):
                print(f"{rel:12} skipped: PyPI has no sdist, only {archive.name} (no docs in a wheel)")
                continue
            dest.mkdir(parents=True, exist_ok=True)
            n = extract(archive, dest)
            (dest / ".extracted").write_text(f"{archive.name} {n}\n")
        if args.no_lint:
            continue
        found = lint_folder(dest, target=rel)
        for f in found:
            f["release"] = rel
        rows.extend(found)
        by_code = Counter(f["code"] for f in found)
        print(f"{rel:12} {len(found):4}  " + " ".join(f"{c}:{n}" for c, n in sorted(by_code.items())))
    if not args.no_lint:
        write_findings(scratch / "findings-docs.jsonl", rows)
        total = Counter(f["code"] for f in rows)
        print(f"{'all':12} {len(rows):4}  " + " ".join(f"{c}:{n}" for c, n in sorted(total.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
