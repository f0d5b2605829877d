"""JUnit XML: one ``testcase`` per linted file, one ``failure`` per finding in it.

A clean file is a passing test case, so CI dashboards (GitLab's test report, Jenkins) show what
was checked as well as what failed. ``failure`` carries ``type`` (the rule code), ``message``
(code and message) and, as text, ``path:row:col: CODE message``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from . import ReportContext


def render(results, ctx: ReportContext) -> str:
    from ..baseline import display_path

    cases = []
    failures = 0
    for r in results:
        case = ET.Element("testcase", {"name": display_path(r.path), "classname": "vllm-lint",
                                       "file": display_path(r.path), "time": "0"})
        for d in r.diagnostics:
            failures += 1
            f = ET.SubElement(case, "failure", {"type": d.code, "message": f"{d.code} {d.message}"})
            f.text = f"{display_path(d.path)}:{d.row}:{d.column}: {d.code} {d.message}" + (
                f" [vllm {d.target_version}]" if d.target_version else "")
        cases.append(case)
    counts = {"tests": str(len(cases)), "failures": str(failures), "errors": "0", "skipped": "0", "time": "0"}
    suites = ET.Element("testsuites", {"name": "vllm-lint", **counts})
    suite = ET.SubElement(suites, "testsuite", {"name": "vllm-lint", **counts})
    suite.extend(cases)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
