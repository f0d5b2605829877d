"""GitLab Code Quality report (the ``codequality`` artifact): a JSON list of issues.

Each issue: ``description``, ``check_name`` (the rule code), ``fingerprint`` (stable across line
shifts and release bumps: path, code, option and line content, see ``vllm_lint.report.fingerprints``), ``severity`` (``major`` for
errors, ``minor`` for warnings, ``info``), ``location.path`` (relative to the working directory,
the project root in a CI job) and ``location.lines.begin`` / ``end``.
"""

from __future__ import annotations

import json

from . import ReportContext

_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def render(results, ctx: ReportContext) -> str:
    from .fingerprints import display_path, fingerprints, lines_of

    lines = lines_of(results, ctx.sources)
    out = []
    for r in results:
        for d, fp in zip(r.diagnostics, fingerprints(r.diagnostics, lines=lines)):
            out.append({
                "type": "issue",
                "description": f"{d.code} {d.message}",
                "check_name": d.code,
                "categories": ["Bug Risk"] if d.severity == "error" else ["Compatibility"],
                "fingerprint": fp.replace(":", "-"),
                "severity": _SEVERITY.get(d.severity, "major"),
                "engine_name": "vllm-lint",
                "location": {"path": display_path(d.path),
                             "lines": {"begin": d.row, "end": d.end_row or d.row}},
            })
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"
