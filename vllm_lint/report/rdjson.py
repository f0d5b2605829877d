"""reviewdog's Diagnostic Format (``rdjson``: ``reviewdog -f=rdjson``), as ruff writes it.

``{"source": {"name", "url"}, "severity", "diagnostics": [...]}``; each diagnostic has
``message``, ``location {path, range {start {line, column}, end}}``, ``severity`` (``ERROR`` /
``WARNING`` / ``INFO``), ``code {value, url}`` and, for a fix, ``suggestions`` (``range`` and
replacement ``text`` per edit), which reviewdog offers as suggested changes on the pull request.
Paths are relative to the working directory; columns count Unicode code points.
"""

from __future__ import annotations

import json

from . import ReportContext

_SEVERITY = {"error": "ERROR", "warning": "WARNING", "info": "INFO"}


def render(results, ctx: ReportContext) -> str:
    from .fingerprints import display_path
    from ..rules.base import registry
    from .json_report import make_positions

    reg = ctx.rules or registry()
    positions = make_positions(results)
    out = []
    for r in results:
        for d in r.diagnostics:
            item = {
                "message": d.message + (f" [vllm {d.target_version}]" if d.target_version and d.code != "VL001" else ""),
                "location": {"path": display_path(d.path), "range": {
                    "start": {"line": d.row, "column": d.column},
                    "end": {"line": d.end_row or d.row, "column": d.end_column or d.column}}},
                "severity": _SEVERITY.get(d.severity, "ERROR"),
                "code": {"value": d.code, "url": reg[d.code].url(ctx.docs_url) if d.code in reg else None},
            }
            if d.fix is not None and d.fix.edits and r.fixed is None:
                suggestions = []
                for e in d.fix.edits:
                    (r1, c1), (r2, c2) = positions(d.path, e.span.start), positions(d.path, e.span.end)
                    suggestions.append({"range": {"start": {"line": r1, "column": c1},
                                                  "end": {"line": r2, "column": c2}}, "text": e.content})
                item["suggestions"] = suggestions
            out.append(item)
    doc = {"source": {"name": "vllm-lint"}, "severity": "ERROR",
           "diagnostics": out}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
