"""Replay real vLLM upgrade commits with ``vllm-lint upgrade`` (issue 32's benchmark).

Each row of ``replay.tsv`` is a commit of a public repository that moved the vLLM release one file
names (repository, commit, parent, path, release before, release after). For each, the file is
taken at the parent commit and at the commit (from the search tools' snapshots under --mirrors, as
`fetch` lays them out, or raw.githubusercontent.com), ``vllm-lint upgrade --to AFTER`` is run on
the parent's file alone, and the result is compared with what the people committed:

* **bumped**: the file names the new release wherever the people's commit does (each line of the
  commit naming AFTER has its counterpart in the upgraded file);
* **forced made**: every option or variable AFTER refuses in the parent's launches (an error of
  VL101-VL105 at AFTER) is gone or rewritten in the upgraded file;
* **undone**: an option the upgrade removed or renamed that the people kept and AFTER accepts
  unchanged (an edit they would have to undo);
* **left, accepted**: an item the upgrade left for a person about an option the people kept and
  AFTER accepts (the "left for a person" list should hold none).

Nothing of the repositories is committed: the files go to a scratch folder.

    python benchmarks/upgrades/replay.py [--mirrors /work/.mirror] [--scratch DIR] [--list]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
sys.path.insert(0, str(REPO_ROOT))

FIELDS = ("repo", "commit", "parent", "path", "from", "to", "note")
REFUSALS = ("VL101", "VL102", "VL103", "VL104", "VL105", "VL110", "VL112", "VL201")


def rows() -> list[dict[str, str]]:
    out = []
    with open(HERE / "replay.tsv", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            if line.strip():
                out.append(dict(zip(header, line.rstrip("\n").split("\t"))))
    return out


def blob(mirrors: Path, repo: str, commit: str, path: str) -> bytes:
    gitdir = mirrors / repo.replace("/", "+", 1) / "repo"
    if (gitdir / "HEAD").exists():
        r = subprocess.run(["git", f"--git-dir={gitdir}", "show", f"{commit}:{path}"], capture_output=True)
        if r.returncode == 0:
            return r.stdout
    import requests

    url = f"https://raw.githubusercontent.com/{repo}/{commit}/{path}"
    resp = requests.get(url, timeout=30)
    resp.raise_for_status()
    return resp.content


def lint_json(path: Path, to: str) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "vllm_lint", "--no-cache", "--isolated", "-t", to,
                        "--output-format", "json", "--exit-zero", str(path)], capture_output=True, text=True,
                       cwd=path.parent)
    try:
        return json.loads(r.stdout or "[]")
    except json.JSONDecodeError:
        return []


def options_of(data: bytes, name: str, to: str) -> list[str]:
    """The option and variable names the file's launches set, as written (in order)."""
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_layered
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    db = Database()
    linter = Linter(db, Settings().merged(target_version=to), select_layered([(None, [], [])]))
    checked = linter.check(name, data, "explicit")
    names = []
    for la in checked.analysis.launches:
        for a in la.args:
            if not a.positional and a.written:
                names.append(a.written.split("=", 1)[0])
        names.extend(e.name for e in la.launch.env)
    return names


def replay_one(row: dict[str, str], mirrors: Path, scratch: Path) -> dict:
    name = os.path.basename(row["path"])
    work = scratch / row["repo"].replace("/", "+") / row["commit"][:10]
    (work / "before").mkdir(parents=True, exist_ok=True)
    (work / "after").mkdir(parents=True, exist_ok=True)
    (work / "upgraded").mkdir(parents=True, exist_ok=True)
    before = blob(mirrors, row["repo"], row["parent"], row["path"])
    after = blob(mirrors, row["repo"], row["commit"], row["path"])
    (work / "before" / name).write_bytes(before)
    (work / "after" / name).write_bytes(after)
    up_path = work / "upgraded" / name
    up_path.write_bytes(before)
    to = row["to"]
    r = subprocess.run([sys.executable, "-m", "vllm_lint", "upgrade", "--to", to, str(up_path)],
                       capture_output=True, text=True)
    upgraded = up_path.read_bytes()
    result = {"row": row, "upgrade_exit": r.returncode, "account": r.stdout + r.stderr}
    # bumped: every line of the people's file naming `to` where the parent named another release
    to_re = re.compile(rf"(?<![0-9]){re.escape(to)}(?![0-9])")
    people = sum(1 for line in after.decode("utf-8", "replace").splitlines() if to_re.search(line))
    parent_had = sum(1 for line in before.decode("utf-8", "replace").splitlines() if to_re.search(line))
    tool = sum(1 for line in upgraded.decode("utf-8", "replace").splitlines() if to_re.search(line))
    result["bump_needed"] = max(0, people - parent_had)
    result["bump_made"] = min(result["bump_needed"], max(0, tool - parent_had))
    # forced: what `to` refuses in the parent's launches
    refused = {(d["code"], d.get("option") or "") for d in lint_json(work / "before" / name, to)
               if d["code"] in REFUSALS and d["severity"] == "error"}
    left_refused = {(d["code"], d.get("option") or "") for d in lint_json(up_path, to)
                    if d["code"] in REFUSALS and d["severity"] == "error"}
    result["forced"] = sorted(f"{c} {o}" for c, o in refused)
    result["forced_left"] = sorted(f"{c} {o}" for c, o in refused & left_refused)
    # undone: options the tool took out that the people kept
    opts_before = options_of(before, name, to)
    opts_after = set(options_of(after, name, to))
    opts_upgraded = set(options_of(upgraded, name, to))
    refused_names = {o for _, o in refused}
    result["undone"] = sorted({o for o in opts_before if o in opts_after and o not in opts_upgraded
                               and o not in refused_names})
    result["people_removed"] = sorted({o for o in opts_before if o not in opts_after})
    result["tool_removed"] = sorted({o for o in opts_before if o not in opts_upgraded})
    left_lines = [line for line in result["account"].splitlines() if line.strip().startswith("left ")]
    result["left_accepted"] = [line.strip() for line in left_lines
                               if any(f"`{o}`" in line for o in opts_after) and not any(
                                   f"`{o}`" in line for o in refused_names)]
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--scratch", type=Path, default=Path(os.environ.get("VLLM_LINT_SCRATCH", "/work/scratch"))
                    / "upgrades")
    ap.add_argument("--list", action="store_true", help="print every replay's outcome")
    args = ap.parse_args()
    results = [replay_one(row, args.mirrors, args.scratch) for row in rows()]
    repos = {r["row"]["repo"] for r in results}
    need = sum(r["bump_needed"] for r in results)
    made = sum(r["bump_made"] for r in results)
    forced = sum(len(r["forced"]) for r in results)
    forced_left = sum(len(r["forced_left"]) for r in results)
    undone = sum(len(r["undone"]) for r in results)
    left_ok = sum(len(r["left_accepted"]) for r in results)
    if args.list:
        for r in results:
            row = r["row"]
            print(f"{row['repo']} {row['commit'][:10]} {row['path']} {row['from']}->{row['to']}: "
                  f"bump {r['bump_made']}/{r['bump_needed']}, forced {len(r['forced']) - len(r['forced_left'])}/"
                  f"{len(r['forced'])} {r['forced_left'] or ''}, undone {r['undone'] or 0}, "
                  f"people removed {r['people_removed']}, tool removed {r['tool_removed']}, "
                  f"left-accepted {r['left_accepted'] or 0}")
    print(f"{len(results)} commits from {len(repos)} repositories")
    print(f"release bumped where the people bumped it: {made}/{need}")
    print(f"changes the new release forced, made: {forced - forced_left}/{forced}")
    print(f"edits the people would undo: {undone}")
    print(f"'left for a person' items about an option the new release accepts unchanged: {left_ok}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
