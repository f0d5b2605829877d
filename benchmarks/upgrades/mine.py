"""Find real vLLM upgrade commits in fetched repositories (git directories under a mirror folder,
as the search tools' `fetch` lays them out: <owner>+<name>/repo): commits whose diff of one file
moves the vLLM release it names (an image tag `vllm/vllm-openai:vX`, `vllm==X`) and, in the same
commit, changes vLLM options or VLLM_* variables. Prints candidate rows (repository, commit,
parent, path, from, to) as TSV for a person to check and add to replay.tsv; reads nothing but
git objects, writes nothing.

    python benchmarks/upgrades/mine.py [--any] /work/.mirror > /tmp/candidates.tsv
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

VERSION = re.compile(r"(?:vllm-openai:v?|vllm[-_ ]?version[\"' :=]+v?|vllm==|vllm~=|vllm/vllm-openai:v?)(\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)",
                     re.I)
FLAG = re.compile(r"(?:^|[\s\"'\[,=])--[a-z][a-z0-9-]+|VLLM_[A-Z0-9_]+")


FLAGS_REQUIRED = "--any" not in sys.argv  # --any: every commit that moves the release, flags or not


def git(gitdir: Path, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={gitdir}", *args], capture_output=True, text=True,
                          errors="replace").stdout


def main(mirror: str) -> None:
    for repo_dir in sorted(Path(mirror).iterdir()):
        gitdir = repo_dir / "repo"
        if not (gitdir / "HEAD").exists():
            continue
        repo = repo_dir.name.replace("+", "/", 1)
        log = git(gitdir, "log", "--no-merges", "-p", "-U0", "--format=@@COMMIT %H %P", "-G", "vllm", "HEAD")
        commit = parent = path = None
        minus: list[str] = []
        plus: list[str] = []

        def flush():
            if commit and path and parent:
                old = {m for line in minus for m in VERSION.findall(line)}
                new = {m for line in plus for m in VERSION.findall(line)}
                flags_changed = (set(f for line in minus for f in FLAG.findall(line))
                                 ^ set(f for line in plus for f in FLAG.findall(line)))
                if old and new and old != new and (flags_changed or not FLAGS_REQUIRED):
                    print("\t".join([repo, commit, parent, path, ",".join(sorted(old)), ",".join(sorted(new)),
                                     " ".join(sorted(x.strip(" \"'[,=") for x in flags_changed))[:200]]))

        for line in log.splitlines():
            if line.startswith("@@COMMIT "):
                flush()
                parts = line.split()
                commit, parent, path = parts[1], (parts[2] if len(parts) > 2 else None), None
                minus, plus = [], []
            elif line.startswith("diff --git "):
                flush()
                path = line.split(" b/", 1)[-1]
                minus, plus = [], []
            elif line.startswith("-") and not line.startswith("---"):
                minus.append(line[1:])
            elif line.startswith("+") and not line.startswith("+++"):
                plus.append(line[1:])
        flush()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(args[0] if args else "/work/.mirror")
