"""JUnit XML, as ruff writes it: one ``testsuite`` per linted file, one ``testcase`` per finding.

Each finding's test case is named ``vllm-lint.CODE`` with the file as ``classname`` (so dashboards
group by file) and carries ``line`` and ``column``; its ``failure`` has the message and, as text,
``path:row:col: CODE message``. A clean file is one passing test case, so CI dashboards (GitLab's
test report, Jenkins) show what was checked as well as what failed.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from . import ReportContext


def render(results, ctx: ReportContext) -> str:
    from .fingerprints import display_path

    suites = ET.Element("testsuites", {"name": "vllm-lint"})
    total = failures = 0
    for r in results:
        shown = display_path(r.path)
        suite = ET.SubElement(suites, "testsuite", {"name": shown, "file": shown})
        cases = failed = 0
        for d in r.diagnostics:
            case = ET.SubElement(suite, "testcase", {"name": f"vllm-lint.{d.code}", "classname": shown,
                                                     "file": shown, "line": str(d.row), "column": str(d.column),
                                                     "time": "0"})
            f = ET.SubElement(case, "failure", {"type": d.code, "message": d.message})
            f.text = f"{shown}:{d.row}:{d.column}: {d.code} {d.severity}: {d.message}" + (
                f" [vllm {d.target_version}]" if d.target_version else "")
            cases += 1
            failed += 1
        if not cases:
            ET.SubElement(suite, "testcase", {"name": "vllm-lint", "classname": shown, "file": shown, "time": "0"})
            cases = 1
        suite.attrib.update({"tests": str(cases), "failures": str(failed), "errors": "0", "skipped": "0", "time": "0"})
        total += cases
        failures += failed
    suites.attrib.update({"tests": str(total), "failures": str(failures), "errors": "0", "time": "0"})
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
