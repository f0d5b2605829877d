"""Compare fresh findings with the judged rows (issue 15).

    python benchmarks/realworld/judge.py docs      # after vllm_docs.py
    python benchmarks/realworld/judge.py deploy    # after deploy.py
    python benchmarks/realworld/judge.py deploy-heldout    # after deploy.py --set heldout
    python benchmarks/realworld/judge.py bench-dev # after bench.py measure (bench-test: the test half)

Reads ``<scratch>/findings-<set>.jsonl`` and ``benchmarks/realworld/judged-<set>.tsv`` and prints,
per release (or repository) and pooled: findings, judged true, judged false, unjudged, the false
share of VL1xx/VL2xx findings and of all findings; then every finding no row judges (new
findings after a change: judge them and add rows), and every finding judged true that is no longer
found at the same place (path, line and option, whatever its code: a lost true finding; a
block once skipped as unparseable, VL002, that is no longer reported is listed apart).

A row with verdict ``dropped`` was judged true and is no longer raised **on purpose**: a change
decided that the tool should not say it there (a policy, or the same finding moved to another line
with its own row). Its reason says since when and why, ``since <commit>: <why>``. Such rows are
counted apart, one line per reason, and are not lost findings; a dropped row whose reason lacks
that form, or whose finding is raised again, makes the run fail (judge it again). A drop that no
commit can be shown to intend is a regression, not a ``dropped`` row.

``--add-unjudged`` appends the unjudged findings to the TSV with verdict ``?`` for a person to
judge. Both halves of the real-world benchmark (``bench-dev``, ``bench-test``) share
``bench-findings.tsv``, grouped by repository; rows of the other half are kept as they are. Rows are matched on (group, path, line, code, option); the TSV format is in
``benchmarks/realworld/README.md``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
COLUMNS = ["group", "path", "line", "code", "option", "verdict", "reason"]
#: the reason of a ``dropped`` row: the commit that stopped raising the finding on purpose, and why
DROPPED_REASON = re.compile(r"since [0-9a-f]{7,40}: \S")


def read_rows(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with open(path, newline="") as fh:
        rows = [r for r in csv.DictReader((ln for ln in fh if not ln.startswith("#")), delimiter="\t")]
    for r in rows:
        r["line"] = int(r["line"])
    return rows


def write_rows(path: Path, rows: list[dict]) -> None:
    rows = sorted(rows, key=_sort_key)
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, COLUMNS, delimiter="\t", lineterminator="\n", extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def _sort_key(r: dict):
    from packaging.version import InvalidVersion, Version

    try:
        g = (0, Version(r["group"]), "")
    except InvalidVersion:
        g = (1, Version("0"), r["group"])
    return (g, r["path"], int(r["line"]), r["code"], r["option"])


def key(r: dict) -> tuple:
    return (r["group"], r["path"], int(r["line"]), r["code"], r["option"])


def findings(path: Path, group_field: str) -> list[dict]:
    out = []
    with open(path) as fh:
        for ln in fh:
            f = json.loads(ln)
            f["group"] = f[group_field]
            out.append(f)
    return out


def _share(n: int, d: int) -> str:
    return f"{100.0 * n / d:5.1f} %" if d else "    - "


def report(found: list[dict], rows: list[dict], by_rule: bool = False) -> dict:
    judged = {key(r): r for r in rows}
    per: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    rules: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    unjudged = []
    raised_again = []
    for f in found:
        r = judged.get(key(f))
        v = r["verdict"] if r else "?"
        if v == "dropped":
            # the row says the tool does not raise this on purpose: raised again, it needs a new verdict
            raised_again.append(f)
            v = "?"
        elif v == "?":
            unjudged.append(f)
        rules[f["code"]][v] += 1
        for g in (f["group"], "pooled"):
            c = per[g]
            c["all"] += 1
            c[v] += 1
            if f["code"].startswith(("VL1", "VL2")):
                c["opt_all"] += 1
                c["opt_" + v] += 1
    print(f"{'group':28} {'found':>5} {'true':>5} {'false':>5} {'?':>4}  {'false VL1/2':>11}  {'false all':>9}")
    for g in sorted(per, key=lambda g: (g == "pooled", _sort_key({"group": g, "path": "", "line": 0, "code": "", "option": ""}))):
        c = per[g]
        print(f"{g:28} {c['all']:5} {c['true']:5} {c['false']:5} {c['?']:4}  "
              f"{_share(c['opt_false'], c['opt_all']):>11}  {_share(c['false'], c['all']):>9}")
    if by_rule:
        print(f"\n{'rule':8} {'found':>5} {'true':>5} {'false':>5} {'?':>4}  {'right':>7}")
        for code in sorted(rules):
            c = rules[code]
            n = sum(c.values())
            print(f"{code:8} {n:5} {c['true']:5} {c['false']:5} {c['?']:4}  {_share(c['true'], n):>7}")
    here = {(f["group"], f["path"], f["line"], f["option"]) for f in found}
    groups = {f["group"] for f in found}  # a group not measured this time loses nothing
    gone = [r for r in rows if r["verdict"] == "true" and r["group"] in groups
            and (r["group"], r["path"], r["line"], r["option"]) not in here]
    dropped = [r for r in rows if r["verdict"] == "dropped" and r["group"] in groups]
    malformed = [r for r in dropped if not DROPPED_REASON.match(r["reason"])]
    # a block said to be skipped (VL002) that is no longer reported is read now: not a lost finding
    unskipped = [r for r in gone if r["code"] == "VL002"]
    lost = [r for r in gone if r["code"] != "VL002"]
    if unjudged:
        print(f"\n{len(unjudged)} unjudged finding(s):")
        for f in unjudged:
            print(f"  {f['group']}\t{f['path']}:{f['line']}\t{f['code']}\t{f['option']}\t{f['message'][:140]}")
    if unskipped:
        print(f"\n{len(unskipped)} block(s) once skipped as unparseable (VL002) no longer reported "
              "(read now, or no longer taken for a launch block: look at them):")
        for r in unskipped:
            print(f"  {r['group']}\t{r['path']}:{r['line']}")
    if lost:
        print(f"\n{len(lost)} finding(s) judged true no longer found:")
        for r in lost:
            print(f"  {r['group']}\t{r['path']}:{r['line']}\t{r['code']}\t{r['option']}\t{r['reason']}")
    if dropped:
        classes: dict[tuple, int] = defaultdict(int)
        for r in dropped:
            classes[(r["code"], r["reason"])] += 1
        print(f"\n{len(dropped)} finding(s) judged true once, not raised on purpose (verdict dropped), per reason:")
        for (code, reason), n in sorted(classes.items()):
            print(f"  {n:4}  {code}\t{reason}")
    if raised_again:
        print(f"\n{len(raised_again)} finding(s) raised again where a row says they are dropped on purpose "
              "(judge them again: verdict true or false):")
        for f in raised_again:
            print(f"  {f['group']}\t{f['path']}:{f['line']}\t{f['code']}\t{f['option']}\t{f['message'][:140]}")
    if malformed:
        print(f"\n{len(malformed)} dropped row(s) without a reason of the form 'since <commit>: <why>':")
        for r in malformed:
            print(f"  {r['group']}\t{r['path']}:{r['line']}\t{r['code']}\t{r['option']}\t{r['reason']}")
    return {"unjudged": unjudged, "lost": lost, "unskipped": unskipped, "per": per, "dropped": dropped,
            "raised_again": raised_again, "malformed": malformed}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("set", choices=["docs", "deploy", "deploy-heldout", "bench-dev", "bench-test"])
    ap.add_argument("--scratch", default=os.environ.get("VLLM_LINT_SCRATCH", "/work/scratch/realworld"))
    ap.add_argument("--findings", help="findings file (default: <scratch>/findings-<set>.jsonl)")
    ap.add_argument("--add-unjudged", action="store_true", help="append unjudged findings with verdict '?'")
    ap.add_argument("--by-rule", action="store_true", help="also print findings judged true per rule code")
    args = ap.parse_args(argv)
    table = HERE / ("bench-findings.tsv" if args.set.startswith("bench-") else f"judged-{args.set}.tsv")
    found = findings(Path(args.findings or Path(args.scratch) / f"findings-{args.set}.jsonl"),
                     "release" if args.set == "docs" else "repo")
    rows = read_rows(table)
    res = report(found, rows, by_rule=args.by_rule)
    if args.add_unjudged and res["unjudged"]:
        have = {key(r) for r in rows}
        for f in res["unjudged"]:
            if key(f) not in have:
                rows.append({**f, "verdict": "?", "reason": " ".join(f["message"].split())[:120]})
        write_rows(table, rows)
        print(f"\n{table}: {len(res['unjudged'])} row(s) added with verdict '?'")
    return 1 if res["unjudged"] or res["lost"] or res["raised_again"] or res["malformed"] else 0


if __name__ == "__main__":
    sys.exit(main())
