"""ruff's JSON shape, plus ``severity``, ``option`` and ``target_version``.

``json``: a list of objects: ``code``, ``name`` (the rule's name), ``message``, ``filename``,
``location {row, column}``, ``end_location``, ``fix {applicability, message, edits [{content,
location, end_location}]}`` or null, ``url`` (the rule's page under ``--docs-url``, null without
it), ``noqa_row``; and ours: ``severity``, ``option``,
``target_version``. Tools that read ruff's JSON read ours. ``json-lines``: the same objects, one
per line. With ``--statistics``: ``{code, name, count, fixable}`` per rule instead, as ruff.
"""

from __future__ import annotations

import json
import os

from . import ReportContext


def diagnostic_dict(d, positions, docs_url=None) -> dict:
    from ..rules.base import registry

    fix = None
    if d.fix is not None:
        edits = []
        for e in d.fix.edits:
            (r1, c1), (r2, c2) = positions(d.path, e.span.start), positions(d.path, e.span.end)
            edits.append({"content": e.content, "location": {"row": r1, "column": c1},
                          "end_location": {"row": r2, "column": c2}})
        fix = {"applicability": d.fix.applicability, "message": d.fix.message, "edits": edits}
    rule = registry().get(d.code)
    return {
        "code": d.code,
        "name": rule.name if rule else None,
        "message": d.message,
        "filename": os.path.abspath(d.path),
        "location": {"row": d.row, "column": d.column},
        "end_location": {"row": d.end_row or d.row, "column": d.end_column or d.column},
        "fix": fix,
        "url": rule.url(docs_url) if rule else None,
        "noqa_row": d.row,
        "severity": d.severity,
        "option": d.option,
        "target_version": d.target_version,
    }


def make_positions(results):
    """Maps (path, byte offset) to (row, column) for fix edits, from each file's bytes."""
    from ..launch import LineIndex

    cache = {}
    # the bytes the findings were computed on: the fixed text after --fix (first result per path)
    known = {}
    for r in results:
        known.setdefault(r.path, r.fixed if r.fixed is not None else r.original)

    def positions(path, offset):
        if path not in cache:
            data = known.get(path)
            if data is None:
                try:
                    with open(path, "rb") as f:
                        data = f.read()
                except OSError:
                    data = b""
            cache[path] = LineIndex(data)
        return cache[path].position(offset)

    return positions


def _objects(results, ctx: ReportContext) -> list[dict]:
    if ctx.statistics:
        from .text import statistics_rows

        diags = [d for r in results for d in r.diagnostics]
        return [{"code": code, "name": name or None, "count": n, "fixable": fixable}
                for code, n, fixable, name in statistics_rows(diags, ctx)]
    positions = make_positions(results)
    return [diagnostic_dict(d, positions, ctx.docs_url) for r in results for d in r.diagnostics]


def render(results, ctx: ReportContext) -> str:
    return json.dumps(_objects(results, ctx), indent=2, ensure_ascii=False) + "\n"


def render_lines(results, ctx: ReportContext) -> str:
    return "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in _objects(results, ctx))
