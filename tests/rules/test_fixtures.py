"""Every rule's fixture folder, ``tests/rules/<CODE>/``, run through the CLI and compared with its
snapshots. How to add a case or a folder: tests/README.md, "Rule fixtures".

A case is any file directly in the folder (``*.toml`` files are settings the cases use, never
cases; sub-folders hold what cases read beside them, such as a model directory). Each case is
linted with ``--select <CODE>`` against the folder's synthetic database and its findings are
compared with ``snapshots/<case>.snap``; where a fix applies, the case is fixed in a copy of the
folder and the fixed bytes are compared with ``snapshots/<case>.fixed``.

``harness.toml`` in a folder (optional):

    database = "synthetic"   # tests/synthetic_db.py (0.8.5, 0.10.0, 0.27.1); default "deploy":
                             # tests/rules/deploy_db.py (the releases the VL3xx-5xx rules gate on)
    target = "0.27.1"        # the cases' target release (default 0.27.1; "none": no -t)
    select = ["VL003", "VL101"]   # default: the folder's code

Directives (comment lines anywhere in a case):

    # test-target: 0.10.0         this case's target release ("none": no -t, the file's own hints)
    # test-args: --gpus 8         extra CLI arguments; {here} is the case's folder
    # test-expect: VL303 4 warning  optional: a finding you mean the case to show (code, row,
                                  severity); the snapshot must contain it

Regenerate after a deliberate change, then review the diff:
    python -m pytest tests/rules --regen
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
SNAPSHOTS = "snapshots"
HARNESS = "harness.toml"
_DIRECTIVE = re.compile(r"#\s*test-(target|args|expect):\s*(.*?)\s*$")
_HARNESS_KEYS = {"database", "target", "select"}


def folders() -> list[Path]:
    return sorted(d for d in HERE.glob("VL[0-9][0-9][0-9]") if d.is_dir())


def cases(folder: Path) -> list[Path]:
    return sorted(f for f in folder.iterdir() if f.is_file() and f.suffix != ".toml")


def all_cases():
    return [pytest.param(f, id=f"{d.name}/{f.name}") for d in folders() for f in cases(d)]


def harness(folder: Path) -> dict:
    p = folder / HARNESS
    conf = tomllib.loads(p.read_text(encoding="utf-8")) if p.is_file() else {}
    assert set(conf) <= _HARNESS_KEYS, f"{p}: unknown keys {sorted(set(conf) - _HARNESS_KEYS)}"
    assert conf.get("database", "deploy") in ("deploy", "synthetic"), f"{p}: database is deploy or synthetic"
    return {"database": conf.get("database", "deploy"), "target": conf.get("target", "0.27.1"),
            "select": conf.get("select", [folder.name])}


def directives(path: Path, default_target: str):
    target, args, expect = default_target, [], []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        m = _DIRECTIVE.search(line)
        if not m:
            continue
        kind, val = m.groups()
        if kind == "target":
            target = val
        elif kind == "args":
            args += shlex.split(val)
        else:
            code, row, sev = val.split()
            expect.append((code, int(row), sev))
    return target, args, expect


def command(case: Path, folder: Path) -> list[str]:
    """The CLI arguments of one case, with ``{here}`` standing for the folder."""
    conf = harness(case.parent)
    target, args, _ = directives(case, conf["target"])
    out = ["--select", ",".join(conf["select"])]
    if target != "none":
        out += ["-t", target]
    return out + [a.replace("{here}", str(folder)) for a in args]


def _run(db: Path, monkeypatch, argv: list[str]) -> list[dict]:
    from click.testing import CliRunner

    from vllm_lint.cli import main

    monkeypatch.setenv("VLLM_LINT_DB", str(db))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")
    r = CliRunner().invoke(main, ["--output-format", "json", *argv], catch_exceptions=False)
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout)


def render(case: Path, findings: list[dict]) -> str:
    """The snapshot text: the command, then one finding a line (span, code, severity, the release
    it was checked against, message) with its fix title below it."""
    conf = harness(case.parent)
    target, args, _ = directives(case, conf["target"])
    head = ["vllm-lint", "--select", ",".join(conf["select"])] + (["-t", target] if target != "none" else [])
    lines = ["# " + shlex.join(head + args + [case.name])]
    here = str(case.parent)
    for d in sorted(findings, key=lambda d: (d["location"]["row"], d["location"]["column"], d["code"])):
        loc, end = d["location"], d["end_location"]
        at = f" ({d['target_version']})" if d.get("target_version") else ""
        lines.append(f"{loc['row']}:{loc['column']}-{end['row']}:{end['column']} {d['code']} {d['severity']}{at}: "
                     f"{d['message'].replace(here, '{here}')}")
        if d.get("fix"):
            lines.append(f"    fix ({d['fix']['applicability']}): {d['fix']['message'].replace(here, '{here}')}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def databases(request):
    return {"deploy": request.getfixturevalue("deploy_db_path"), "synthetic": request.getfixturevalue("synth_db_path")}


@pytest.mark.parametrize("case", all_cases())
def test_case_matches_its_snapshots(case, databases, monkeypatch, tmp_path, snapshot):
    folder = case.parent
    db = databases[harness(folder)["database"]]
    findings = _run(db, monkeypatch, [*command(case, folder), str(case)])
    snap = folder / SNAPSHOTS / (case.name + ".snap")
    snapshot(snap, render(case, findings))
    _, _, expect = directives(case, "none")
    for code, row, sev in expect:
        assert any((d["code"], d["location"]["row"], d["severity"]) == (code, row, sev) for d in findings), \
            f"{case.name}: test-expect {code} {row} {sev} is not among the findings"
    fixed = None
    if any(d.get("fix") for d in findings):
        copy = tmp_path / folder.name
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(SNAPSHOTS))
        _run(db, monkeypatch, ["--fix", *command(case, copy), str(copy / case.name)])
        after = (copy / case.name).read_bytes()
        fixed = after if after != case.read_bytes() else None
    snapshot(folder / SNAPSHOTS / (case.name + ".fixed"), fixed)


def test_every_rule_has_a_folder_with_cases_that_fire_and_stay_silent():
    from vllm_lint.rules.base import registry

    codes = list(registry())
    assert codes
    for code in codes:
        folder = HERE / code
        assert folder.is_dir(), f"{code} has no fixture folder tests/rules/{code}/ (tests/README.md)"
        fired, silent = [], []
        for case in cases(folder):
            snap = folder / SNAPSHOTS / (case.name + ".snap")
            text = snap.read_text(encoding="utf-8") if snap.is_file() else ""
            (fired if re.search(rf"^\S+ {code} ", text, re.M) else silent).append(case.name)
        assert fired and silent, f"{code} needs cases where it fires ({fired}) and where it stays silent ({silent})"


def test_no_snapshot_without_its_case(snapshot):
    for folder in folders():
        names = {c.name for c in cases(folder)}
        for snap in sorted((folder / SNAPSHOTS).glob("*")) if (folder / SNAPSHOTS).is_dir() else []:
            case = snap.name.rsplit(".", 1)[0]
            if case not in names:
                snapshot(snap, None)
