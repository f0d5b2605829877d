"""Rows of ``vllm_lint/data/forks.tsv``: the ``VLLM_*`` variables a public fork of vLLM reads in
its ``vllm/envs.py`` (keys of its environment dict) that no vLLM release of the database and no
platform plugin reads. A maintainer tool, not run by the tests: read a fork's git directory (a
``fetch`` snapshot or a clone) at the refs given, print TSV rows to add to the table.

    python tools/fork_env.py OWNER/NAME GIT_DIR REF [REF ...] > rows.tsv
"""

from __future__ import annotations

import re
import subprocess
import sys

from vllm_lint.surface.db import Database, shipped_db_path

_KEY = re.compile(r'^\s*"(VLLM_[A-Z0-9_]+)"\s*:\s*lambda', re.M)


def fork_rows(fork: str, git_dir: str, refs: list[str]) -> list[tuple[str, str, str]]:
    db = Database(shipped_db_path())
    known = set(db.all_env_names)
    seen: dict[str, str] = {}
    for ref in refs:
        commit = subprocess.run(["git", "-C", git_dir, "rev-parse", ref], capture_output=True, text=True,
                                check=True).stdout.strip()
        text = subprocess.run(["git", "-C", git_dir, "show", f"{commit}:vllm/envs.py"], capture_output=True,
                              text=True, check=True).stdout
        for name in sorted(set(_KEY.findall(text))):
            if name not in known and not db.plugins.readers(name) and name not in seen:
                seen[name] = f"https://github.com/{fork}/blob/{commit}/vllm/envs.py (branch {ref})"
    return [(name, fork, source) for name, source in sorted(seen.items())]


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__.split("\n\n")[1].strip())
    for row in fork_rows(sys.argv[1], sys.argv[2], sys.argv[3:]):
        print("\t".join(row))
