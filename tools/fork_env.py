"""Rows of ``vllm_lint/data/forks.tsv``: the ``VLLM_*`` variables a public fork of vLLM reads that
the newest vLLM release of the database does not read (a platform plugin may read it too). A maintainer
tool, not run by the tests: read a git directory (a ``fetch`` snapshot or a clone) at the refs
given, print TSV rows to add to the table.

    python tools/fork_env.py OWNER/NAME GIT_DIR REF [REF ...] > rows.tsv
    python tools/fork_env.py --package vllm_hpu_extension --for HabanaAI/vllm-fork \\
        HabanaAI/vllm-hpu-extension GIT_DIR REF > rows.tsv

Read at each ref: the keys of ``vllm/envs.py``'s environment dict, and the variables the package's
modules read themselves (``os.getenv("X")``, ``os.environ.get("X")``, ``os.environ["X"]``, ``"X" in
os.environ``: ``scrape/plugins.py``'s ``package_reads``; in a ``--package`` other than ``vllm``,
also the ``Env("X")`` / ``Value("name", env_var=...)`` helpers of Habana's extension). ``--package`` reads another package than
``vllm`` (a companion repository the fork installs, such as Habana's ``vllm-hpu-extension``,
pinned by the fork's ``requirements-hpu.txt``); ``--for`` names the fork its rows belong to. The
source of a row is the first file read at the first ref that reads it.
"""

from __future__ import annotations

import argparse
import re
import subprocess

from vllm_lint.scrape.plugins import package_reads
from vllm_lint.scrape.sources import GitTree
from vllm_lint.surface.db import Database, shipped_db_path

_KEY = re.compile(r'^\s*"(VLLM_[A-Z0-9_]+)"\s*:\s*(?:lambda|\n)', re.M)
_HELPERS = (("Env", "{}"), ("Value", "VLLM_{upper}"), ("ValueFromList", "VLLM_{upper}"))


def fork_rows(fork: str, git_dir: str, refs: list[str], package: str = "vllm",
              source_repo: str = "") -> list[tuple[str, str, str]]:
    db = Database(shipped_db_path())
    newest = set(db.surface(db.newest).env)
    seen: dict[str, str] = {}
    for ref in refs:
        commit = subprocess.run(["git", "-C", git_dir, "rev-parse", f"{ref}^{{commit}}"], capture_output=True,
                                text=True, check=True).stdout.strip()
        tree = GitTree(git_dir, commit)
        found: dict[str, str] = {}
        if package == "vllm":
            text = (tree.read("vllm/envs.py") or b"").decode("utf-8", "replace")
            found.update((name, "vllm/envs.py") for name in sorted(set(_KEY.findall(text))))
        # the helpers are the extension's own classes: in vLLM's package a `Value(...)` is another thing
        helpers = _HELPERS if package != "vllm" else ()
        for name, path in package_reads(tree, package, ("VLLM_",), helpers, skip=("vllm/envs.py",)).items():
            found.setdefault(name, path)
        for name, path in sorted(found.items()):
            if name not in newest and name not in seen:
                seen[name] = f"https://github.com/{source_repo or fork}/blob/{commit}/{path} (ref {ref})"
    return [(name, fork, source) for name, source in sorted(seen.items())]


if __name__ == "__main__":
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1].strip())
    ap.add_argument("repo")
    ap.add_argument("git_dir")
    ap.add_argument("refs", nargs="+")
    ap.add_argument("--package", default="vllm")
    ap.add_argument("--for", dest="fork", default=None)
    a = ap.parse_args()
    for row in fork_rows(a.fork or a.repo, a.git_dir, a.refs, a.package, a.repo):
        print("\t".join(row))
