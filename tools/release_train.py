#!/usr/bin/env python3
"""The release train: bring vLLM's new releases into flag_db/, cross-check each against its real
parser, and write the pull request's description.

What `.github/workflows/release-train.yml` runs (weekly and on demand); it runs offline too, against
any index (`--index-url`), which is how its test runs it (tests/tools/test_release_train.py):

    python tools/release_train.py --db-dir flag_db --work /tmp/xc --body pr-body.md

1. `vllm-lint db update --db-dir DB` (the releases newer than the database's newest);
2. for each new release, the cross-check command (`--crosscheck`, default `tools/crosscheck/run.py`:
   it builds the release's real `vllm serve` parser in a venv and compares it with the new
   release file), read back from its JSON;
3. the description: per new release, the surface diff from the release before it in words (removed,
   renamed, new options; default and choice changes; deprecated options and values; environment
   variables removed, added, refused at start) and the cross-check's figures; and whether every
   release file that existed before is byte-identical.

Exit codes: 0 nothing new, or new releases that landed and agree with their real parser (the
workflow opens the pull request); 1 a new release disagrees with its real parser, the cross-check
failed, or an existing release file changed (the description says which; no pull request);
2 the update itself failed. With `GITHUB_OUTPUT` set, `new_releases` (space-separated) and
`title` are written there.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DEFAULT_CROSSCHECK = "{python} {repo}/tools/crosscheck/run.py {version} --db {db} --work {work} --json {json}"


def release_hashes(db: Path) -> dict[str, str]:
    return {p.stem: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((db / "releases").glob("*.json"))}


def run_update(db: Path, index_url: Optional[str]) -> tuple[int, str]:
    cmd = [sys.executable, "-m", "vllm_lint", "db", "update", "--db-dir", str(db), "--yes"]
    if index_url:
        cmd += ["--index-url", index_url]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc.returncode, (proc.stdout + proc.stderr).strip()


def crosscheck(version: str, db: Path, work: Path, template: str) -> dict[str, Any]:
    """The cross-check's figures for one release: {"ok": bool, "figures": {...}, "problem": str}."""
    out = work / f"release-train-xc-{version}.json"
    out.unlink(missing_ok=True)
    cmd = template.format(python=shlex.quote(sys.executable), repo=shlex.quote(str(REPO)), version=version,
                          db=shlex.quote(str(db)), work=shlex.quote(str(work)), json=shlex.quote(str(out)))
    proc = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    if proc.returncode != 0 or not out.is_file():
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"ok": False, "figures": {}, "problem": f"the cross-check failed (exit {proc.returncode}): {tail[0][:300]}"}
    try:
        doc = json.loads(out.read_text())
        r = doc[version]
    except (ValueError, KeyError, TypeError):
        return {"ok": False, "figures": {}, "problem": f"the cross-check wrote no result for {version}"}
    figures = {}
    problems = []
    strings = r.get("strings") or {}
    figures["option strings"] = (strings.get("agree", 0), strings.get("real", 0))
    if strings.get("only_real") or strings.get("only_db"):
        problems.append(f"option strings only in the real parser: {strings.get('only_real')}, "
                        f"only in the database: {strings.get('only_db')}")
    for key, label in (("defaults", "defaults"), ("choices", "choices"), ("choice_probes", "choice probes"),
                       ("types", "types")):
        part = r.get(key) or {}
        figures[label] = (part.get("agree", 0), part.get("checked", 0))
        if part.get("agree", 0) != part.get("checked", 0):
            problems.append(f"{label}: {part.get('checked', 0) - part.get('agree', 0)} disagree")
    pos = r.get("positionals") or {}
    if pos.get("db") != pos.get("real"):
        problems.append(f"positionals: database {pos.get('db')}, real parser {pos.get('real')}")
    return {"ok": not problems, "figures": figures, "problem": "; ".join(problems),
            "unknown_choices": sorted(r.get("choices_missing_in_db") or {})}


def surface_words(db_dir: Path, old: str, new: str) -> list[str]:
    """The surface diff from ``old`` to ``new`` as a reviewer reads it (markdown lines)."""
    from vllm_lint.surface.db import Database
    from vllm_lint.surface.timeline import describe_change, describe_refusal, diff

    d = diff(Database(db_dir), old, new)
    lines: list[str] = []

    def section(title: str, items: list[str]) -> None:
        if items:
            lines.append(f"**{title}** ({len(items)})")
            lines.extend(f"- {it}" for it in items)
            lines.append("")

    section("Removed options", [f"`{s}`" for s in d.removed])
    section("Renamed options", [f"`{a}` → `{b}`" for a, b, _ in d.renamed])
    section("New options", [f"`{s}`" for s in d.added])
    section("Default changes", [f"`{o}`: {describe_change(w, a, b)}" for o, w, a, b in d.changed if w == "default"])
    section("Choice changes", [f"`{o}`: {describe_change(w, a, b)}" for o, w, a, b in d.changed if w == "choices"])
    section("Type changes", [f"`{o}`: {describe_change(w, a, b)}" for o, w, a, b in d.changed
                             if w not in ("default", "choices")])
    section("Newly deprecated options", [f"`{s}`" for s in d.deprecated])
    section("Newly deprecated values", [f"`{o} {v}`" + (f" in favour of `{su}`" if su else "")
                                        for o, v, su in d.deprecated_values])
    section("Removed environment variables", [f"`{s}`" for s in d.env_removed])
    section("Renamed environment variables", [f"`{a}` → `{b}`" for a, b, _ in d.env_renamed])
    section("New environment variables", [f"`{s}`" for s in d.env_added])
    section("Environment variables refused at start", [f"`{n}`: {describe_refusal(e)}" for n, e in d.env_refused])
    section("Environment variable changes", [f"`{o}`: {describe_change(w, a, b)}" for o, w, a, b in d.env_changed])
    if not lines:
        lines = ["No change to the option surface.", ""]
    return lines


def body(db_dir: Path, versions: list[str], all_versions: list[str], checks: dict[str, dict],
         unchanged: bool, changed_files: list[str]) -> str:
    out = [f"Adds vLLM {', '.join(versions)} to the flag database (`vllm-lint db update`, "
           "`tools/release_train.py`).", ""]
    for v in versions:
        pos = all_versions.index(v)
        prev = all_versions[pos - 1] if pos else None
        out.append(f"## vLLM {v}" + (f" (from {prev})" if prev else ""))
        out.append("")
        if prev:
            out.extend(surface_words(db_dir, prev, v))
        c = checks.get(v)
        if c is None:
            out += ["Cross-check against the real parser: not run.", ""]
        else:
            figs = ", ".join(f"{k} {a}/{n}" for k, (a, n) in c["figures"].items())
            verdict = "agrees" if c["ok"] else f"**disagrees**: {c['problem']}"
            out.append(f"Cross-check against the real `vllm serve` parser: {verdict}" + (f" ({figs})" if figs else ""))
            if c.get("unknown_choices"):
                out.append(f"Choices the database leaves open (the parser's depend on the platform): "
                           f"{', '.join('`' + s + '`' for s in c['unknown_choices'])}")
            out.append("")
    out.append("Existing release files: " + ("byte-identical." if unchanged else
                                              "**changed**: " + ", ".join(changed_files)))
    return "\n".join(out) + "\n"


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db-dir", type=Path, default=REPO / "flag_db")
    ap.add_argument("--index-url", default=os.environ.get("VLLM_LINT_PYPI_URL"))
    ap.add_argument("--work", type=Path, default=Path("/tmp/release-train"))
    ap.add_argument("--crosscheck", default=DEFAULT_CROSSCHECK,
                    help="command per new release ({python} {repo} {version} {db} {work} {json}), or 'none'")
    ap.add_argument("--body", type=Path, default=None, help="write the pull request's description here")
    args = ap.parse_args(argv)
    db = args.db_dir.resolve()
    args.work.mkdir(parents=True, exist_ok=True)

    before = release_hashes(db)
    code, log = run_update(db, args.index_url)
    print(log, file=sys.stderr)
    after = release_hashes(db)
    new = sorted(set(after) - set(before), key=lambda v: tuple(int(x) if x.isdigit() else x for x in v.split(".")))
    from vllm_lint.surface.db import Database

    if new:
        all_versions = Database(db).versions
        new = [v for v in all_versions if v in new]
    else:
        all_versions = []
    changed = sorted(v for v in before if after.get(v) != before[v])
    if code not in (0, 1) or (code == 1 and not new):
        print(f"release train: the update failed (exit {code})", file=sys.stderr)
        return 2
    if not new:
        print("release train: the database already has every release", file=sys.stderr)
        _outputs("", "")
        return 0
    checks: dict[str, dict] = {}
    if args.crosscheck != "none":
        for v in new:
            print(f"release train: cross-checking {v}", file=sys.stderr)
            checks[v] = crosscheck(v, db, args.work, args.crosscheck)
    text = body(db, new, all_versions, checks, not changed, changed)
    if args.body:
        args.body.write_text(text)
    else:
        print(text)
    failed = [v for v, c in checks.items() if not c["ok"]]
    if failed or changed or code == 1:
        print(f"release train: not ready ({'disagreement at ' + ', '.join(failed) if failed else ''}"
              f"{'; existing files changed' if changed else ''}{'; some releases failed' if code == 1 else ''})",
              file=sys.stderr)
        _outputs("", "")
        return 1
    _outputs(" ".join(new), f"flag_db: vLLM {', '.join(new)}")
    return 0


def _outputs(new: str, title: str) -> None:
    path = os.environ.get("GITHUB_OUTPUT")
    if path:
        with open(path, "a") as fh:
            fh.write(f"new_releases={new}\ntitle={title}\n")


if __name__ == "__main__":
    sys.exit(main())
