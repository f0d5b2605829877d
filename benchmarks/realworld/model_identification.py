"""How many real launches name a model the shipped table identifies, and what the model rules say.

    python benchmarks/realworld/model_identification.py FOLDER [--before-table OLD_MODELS_TSV]

FOLDER holds deployment files laid out as ``<owner>+<repo>/<path>``, with ``index.tsv`` (repository,
path, commit: ``benchmarks/realworld/model_files.tsv`` lists the ones measured; the files themselves
are not committed). For every launch it prints the model as written and how it was identified;
launches whose model is not written literally (``$MODEL``, a template value, no model) are counted
apart. ``--before-table``: also identify with an older table by its exact repo ids (the lookup the
table had before the name rules), for a before/after count. Findings of the model rules (VL3xx-VL5xx)
are listed by code for judging.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from pathlib import Path

from vllm_lint.pipeline.discovery import Target
from vllm_lint.pipeline.engine import Linter
from vllm_lint.knowledge import models
from vllm_lint.knowledge.layout import layout
from vllm_lint.rules.base import Rule, registry
from vllm_lint.settings import Settings
from vllm_lint.surface.db import Database


def _old_ids(path: Path) -> set[str]:
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines(keepends=True) if not ln.startswith("#")]
    return {i.strip().lower() for r in csv.DictReader(lines, delimiter="\t") for i in r["hf_repo_ids"].split(";") if i}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--before-table", type=Path)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    old = _old_ids(a.before_table) if a.before_table else None
    seen: list[dict] = []
    probe = Rule(code="VL999", name="probe", summary="records each launch's model", severity="info")

    @probe.check
    def _probe(ctx):
        if ctx.launch is None:
            return ()
        lay = layout(ctx)
        written = lay.model.value if lay.model.known else None
        named = ctx.launch.model  # the model a launch names outside its options (a chart's modelURL, ...)
        if not lay.model.present and isinstance(named, str):
            written = named
        row = {"path": ctx.path, "launch_at": ctx.launch.span.start, "model": written,
               "literal": bool(written) and lay.model.known and not any(c in written for c in "${}`")}
        if row["literal"]:
            facts, why = models.resolve(written)
            row["identified"] = facts is not None
            row["how"] = facts.matched_by if facts is not None else why
            row["row"] = facts.model if facts is not None else None
            if old is not None:
                row["before"] = written.strip().lower() in old
        seen.append(row)
        return ()

    rules = [probe] + [r for c, r in registry().items() if c[2] in "345"]
    db = Database()
    linter = Linter(db, Settings(), rules)
    findings = []
    for f in sorted(p for p in a.folder.rglob("*") if p.is_file() and p.name != "index.tsv"):
        res = linter.lint_file(Target(str(f), True))
        for d in res.diagnostics:
            if d.code != "VL999" and d.code[2] in "345":
                findings.append((d.code, d.severity, str(f.relative_to(a.folder)), d.row, d.message))
    literal = [r for r in seen if r["literal"]]
    ident = [r for r in literal if r["identified"]]
    print(f"launches: {len(seen)}; model written literally: {len(literal)}; identified now: {len(ident)}"
          + (f"; identified by exact id before: {sum(1 for r in literal if r.get('before'))}" if old is not None else ""))
    for r in literal:
        if not r["identified"]:
            print(f"  unknown: {r['model']}  ({r['path']})")
    print("how:", dict(Counter(r["how"].split(":")[0].split(" `")[0] for r in ident)))
    print("findings:", dict(Counter((c, s) for c, s, *_ in findings)))
    for c, s, p, row, m in findings:
        print(f"  {c} {s} {p}:{row}: {m}")
    if a.json:
        json.dump({"launches": seen, "findings": findings}, sys.stdout, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
