"""Checkstyle XML (Jenkins' warnings plugin, reviewdog ``-f=checkstyle``, SonarQube imports), as
hadolint writes it: one ``file`` element per linted file with findings, one ``error`` per finding
with ``line``, ``column``, ``severity`` (``error`` / ``warning`` / ``info``), ``message`` and
``source`` (``vllm-lint.CODE``). Paths are relative to the working directory.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from . import ReportContext


def render(results, ctx: ReportContext) -> str:
    from .fingerprints import display_path

    root = ET.Element("checkstyle", {"version": "4.3"})
    for r in results:
        if not r.diagnostics:
            continue
        f = ET.SubElement(root, "file", {"name": display_path(r.path)})
        for d in r.diagnostics:
            msg = d.message + (f" [vllm {d.target_version}]" if d.target_version and d.code != "VL001" else "")
            ET.SubElement(f, "error", {"line": str(d.row), "column": str(d.column), "severity": d.severity,
                                       "message": f"{d.code} {msg}", "source": f"vllm-lint.{d.code}"})
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
