"""SARIF 2.1.0 (GitHub code scanning, Azure DevOps, IDE viewers).

One run. ``tool.driver.rules`` holds every rule's metadata: ``id``, ``name``,
``shortDescription`` (the summary), ``fullDescription`` and ``help`` (the rule's documentation,
as text and Markdown), ``helpUri`` (its page where ``--docs-url`` says the built website is
published; left out without it) and
``defaultConfiguration.level`` (and whether it is enabled by default). Each result has the rule,
level, message, a physical location (URI relative to ``%SRCROOT%``, the working directory, and a
region in lines and Unicode code point columns, with the byte offsets too when known), a
line-independent ``partialFingerprints`` entry, and the rule's fix as a SARIF ``fix``:
``artifactChanges`` whose ``replacements`` delete a byte region and insert the new text.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .. import __version__
from . import ReportContext

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _rule(r, docs_url) -> dict:
    doc = r.doc or r.summary
    out = {
        "id": r.code,
        "name": r.name,
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": doc},
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": _LEVEL.get(r.severity, "error"), "enabled": bool(r.default_enabled)},
        "properties": {"fix": r.fix or "none"},
    }
    url = r.url(docs_url)
    if url:
        out["helpUri"] = url
    return out


def _artifact(path: str) -> dict:
    from .fingerprints import display_path

    shown = display_path(path)
    if os.path.isabs(shown):
        return {"uri": Path(shown).as_uri()}
    return {"uri": shown.replace("%", "%25").replace(" ", "%20"), "uriBaseId": "%SRCROOT%"}


def render(results, ctx: ReportContext) -> str:
    from .fingerprints import fingerprints, lines_of
    from ..rules.base import registry
    from .json_report import make_positions

    reg = ctx.rules or registry()
    codes = list(reg)
    positions = make_positions(results)
    lines = lines_of(results, ctx.sources)
    out_results = []
    for r in results:
        for d, fp in zip(r.diagnostics, fingerprints(r.diagnostics, lines=lines)):
            region = {"startLine": max(1, d.row), "startColumn": max(1, d.column)}
            if d.end_row:
                region["endLine"] = max(d.end_row, region["startLine"])
                region["endColumn"] = max(1, d.end_column)
            if d.span is not None:
                region["byteOffset"] = d.span.start
                region["byteLength"] = d.span.end - d.span.start
            msg = d.message
            if d.target_version and d.code not in ("VL001", "VL003"):
                msg += f" [vllm {d.target_version}]"
            res = {
                "ruleId": d.code,
                "level": _LEVEL.get(d.severity, "error"),
                "message": {"text": msg},
                "locations": [{"physicalLocation": {"artifactLocation": _artifact(d.path), "region": region}}],
                "partialFingerprints": {"vllmLint/v1": fp},
            }
            if d.code in reg:
                res["ruleIndex"] = codes.index(d.code)
            props = {k: v for k, v in (("option", d.option), ("targetVersion", d.target_version)) if v}
            if props:
                res["properties"] = props
            if d.fix is not None and d.fix.edits and r.fixed is None:
                replacements = []
                for e in d.fix.edits:
                    (r1, c1), (r2, c2) = positions(d.path, e.span.start), positions(d.path, e.span.end)
                    replacements.append({
                        "deletedRegion": {"byteOffset": e.span.start, "byteLength": e.span.end - e.span.start,
                                          "startLine": r1, "startColumn": c1, "endLine": r2, "endColumn": c2},
                        "insertedContent": {"text": e.content},
                    })
                res["fixes"] = [{
                    "description": {"text": f"{d.fix.message} ({d.fix.applicability})"},
                    "artifactChanges": [{"artifactLocation": _artifact(d.path), "replacements": replacements}],
                }]
            out_results.append(res)
    doc = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "vllm-lint",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [_rule(reg[c], ctx.docs_url) for c in codes],
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": Path(os.getcwd()).as_uri() + "/"}},
            "columnKind": "unicodeCodePoints",
            "results": out_results,
        }],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
