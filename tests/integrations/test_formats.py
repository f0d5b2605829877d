"""Every output format on the same findings: GitHub workflow commands, GitLab Code Quality,
SARIF 2.1.0 (validated against the OASIS schema), JUnit XML, concise and text with colour."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
FILES = ["deploy.sh", "k8s/deployment.yaml", "Dockerfile", "offline.py", "README.md", "clean.sh"]


def lint(run_cli, fmt, *extra):
    r = run_cli("-t", "0.27.1", "--output-format", fmt, *extra, *FILES)
    assert r.exit_code == 1, r.output
    return r.stdout


@pytest.fixture
def reference(run_cli, project):
    """The findings as the JSON reporter sees them: (path, code, row, col, end row, end col)."""
    out = json.loads(lint(run_cli, "json"))
    assert len(out) >= 12
    return [(Path(d["filename"]).relative_to(project).as_posix(), d["code"], d["location"]["row"],
             d["location"]["column"], d["end_location"]["row"], d["end_location"]["column"], d["severity"])
            for d in out]


GITHUB = re.compile(r"^::(error|warning|notice) file=([^,]+),line=(\d+),col=(\d+),endLine=(\d+),endColumn=(\d+),"
                    r"title=(VL\d{3})::(.+)$")


def test_github(run_cli, project, reference):
    lines = lint(run_cli, "github").splitlines()
    assert len(lines) == len(reference)
    got = []
    for line in lines:
        m = GITHUB.match(line)
        assert m, line
        level, path, row, col, erow, ecol, code, msg = m.groups()
        got.append((path, code, int(row), int(col), int(erow), int(ecol),
                    {"error": "error", "warning": "warning", "notice": "info"}[level]))
        assert msg and "%0A" not in msg
    assert got == reference
    assert any(line.startswith("::error file=deploy.sh,line=4,col=3,") and "title=VL101::`--swap-space` was removed"
               in line for line in lines)


def test_github_escaping():
    from vllm_lint.report.github import _data, _prop

    assert _data("50% a\nb\r") == "50%25 a%0Ab%0D"
    assert _prop("a:b,c") == "a%3Ab%2Cc"


def test_gitlab(run_cli, project, reference):
    out = json.loads(lint(run_cli, "gitlab"))
    assert len(out) == len(reference)
    for issue, ref in zip(out, reference):
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["check_name"] == ref[1] and issue["description"].startswith(ref[1] + " ")
        assert issue["location"]["path"] == ref[0]
        assert issue["location"]["lines"]["begin"] == ref[2]
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
    fps = [i["fingerprint"] for i in out]
    assert len(set(fps)) == len(fps), "fingerprints must be unique"
    # stable against line shifts: insert lines at the top of every file that can take them
    for name in ("deploy.sh", "offline.py"):
        p = project / name
        text = p.read_text()
        head, rest = (text.split("\n", 1) if text.startswith("#!") else ("", text))
        p.write_text((head + "\n" if head else "") + "# a\n# b\n\n" + rest)
    again = json.loads(lint(run_cli, "gitlab"))
    assert [i["fingerprint"] for i in again] == fps
    assert [i["location"]["lines"]["begin"] for i in again] != [i["location"]["lines"]["begin"] for i in out]


def test_sarif_validates_against_the_schema(run_cli, project, reference):
    import jsonschema

    doc = json.loads(lint(run_cli, "sarif"))
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft4Validator.check_schema(schema)
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(doc), key=str)
    assert not errors, errors[:3]
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    from vllm_lint.rules.base import registry

    assert [r["id"] for r in rules] == list(registry())
    vl101 = next(r for r in rules if r["id"] == "VL101")
    assert vl101["name"] == "removed-option"
    assert "helpUri" not in vl101  # no --docs-url: no address is made up (tests/site/test_rule_links.py)
    assert "## What it does" in vl101["help"]["markdown"] and vl101["shortDescription"]["text"]
    assert vl101["defaultConfiguration"]["level"] == "error"
    assert next(r for r in rules if r["id"] == "VL003")["defaultConfiguration"]["enabled"] is False
    results = run["results"]
    assert len(results) == len(reference)
    for res, ref in zip(results, reference):
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"] == ref[1]
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"] == {"uri": ref[0], "uriBaseId": "%SRCROOT%"}
        assert (loc["region"]["startLine"], loc["region"]["startColumn"]) == (ref[2], ref[3])
        assert res["partialFingerprints"]["vllmLint/v1"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.as_uri() + "/"


def test_sarif_fixes_reproduce_the_fix(run_cli, project):
    """Applying a result's SARIF replacements (byte offsets) gives what --fix writes."""
    p = project / "one.sh"
    p.write_text("# é\nvllm serve m --cuda-graph-sizes 8\n")
    r = run_cli("-t", "0.27.1", "--output-format", "sarif", "one.sh")
    res = json.loads(r.stdout)["runs"][0]["results"]
    assert len(res) == 1 and res[0]["fixes"]
    data = p.read_bytes()
    for rep in sorted(res[0]["fixes"][0]["artifactChanges"][0]["replacements"],
                      key=lambda x: -x["deletedRegion"]["byteOffset"]):
        reg = rep["deletedRegion"]
        data = data[:reg["byteOffset"]] + rep["insertedContent"]["text"].encode() + data[reg["byteOffset"] + reg["byteLength"]:]
        assert reg["startLine"] == 2
    run_cli("-t", "0.27.1", "--fix", "one.sh")
    assert data == p.read_bytes() == b"# \xc3\xa9\nvllm serve m --cudagraph-capture-sizes 8\n"


def test_junit(run_cli, project, reference):
    root = ET.fromstring(lint(run_cli, "junit"))
    assert root.tag == "testsuites"
    # as ruff: one test suite per file, one test case per finding; a clean file is one passing case
    suites = {s.get("name"): s for s in root.findall("./testsuite")}
    assert sorted(suites) == sorted(FILES)
    failures = root.findall("./testsuite/testcase/failure")
    assert len(failures) == len(reference) == int(root.get("failures"))
    cases = root.findall("./testsuite/testcase")
    assert all(len(c.findall("failure")) <= 1 for c in cases)
    assert int(root.get("tests")) == len(cases) == len(reference) + 1  # clean.sh
    clean = suites["clean.sh"].findall("testcase")
    assert len(clean) == 1 and clean[0].find("failure") is None
    sh = suites["deploy.sh"].findall("testcase")
    assert len(sh) == sum(1 for ref in reference if ref[0] == "deploy.sh")
    assert {c.get("name") for c in sh} >= {"vllm-lint.VL101", "vllm-lint.VL102", "vllm-lint.VL105", "vllm-lint.VL201"}
    first = next(c for c in sh if c.get("line") == "4")
    assert first.get("classname") == "deploy.sh" and first.get("column") == "3"
    assert first.find("failure").text.startswith("deploy.sh:4:3: VL101 error: ")


def test_concise_and_colour(run_cli, project, reference):
    out = lint(run_cli, "concise").splitlines()
    # the findings, then the summary lines (found, fixable, hidden unsafe fixes)
    assert len(out) == len(reference) + 3 and out[len(reference)].startswith("Found ")
    assert out[0].startswith(f"{reference[0][0]}:{reference[0][2]}:{reference[0][3]}: {reference[0][1]}")
    assert "\x1b[" not in "".join(out), "no colour when piped"
    forced = lint(run_cli, "text", "--color")
    assert "\x1b[" in forced
    r = run_cli("-t", "0.27.1", *FILES, env={"NO_COLOR": "1"})
    assert "\x1b[" not in r.stdout


def test_empty_results_are_valid(run_cli, project):
    import jsonschema

    for fmt in ("github", "gitlab", "sarif", "junit"):
        r = run_cli("-t", "0.27.1", "--output-format", fmt, "clean.sh")
        assert r.exit_code == 0, (fmt, r.output)
        if fmt == "github":
            assert r.stdout == ""
        elif fmt == "gitlab":
            assert json.loads(r.stdout) == []
        elif fmt == "sarif":
            doc = json.loads(r.stdout)
            jsonschema.validate(doc, json.loads(SCHEMA.read_text()), cls=jsonschema.Draft4Validator)
            assert doc["runs"][0]["results"] == []
        else:
            assert ET.fromstring(r.stdout).get("failures") == "0"
