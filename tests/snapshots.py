"""Expected output kept in files (snapshots): compared byte for byte, rewritten by ``--regen``.

    def test_x(snapshot):
        snapshot(Path("expected/x.txt"), actual_bytes_or_text)   # None: the file must not exist

The fixture-folder harness below (``check_case``) runs the rules' folders (tests/rules/<CODE>/)
and the formats' folders (tests/formats/<name>/).

``python -m pytest tests/rules tests/formats tests/e2e --regen`` writes every snapshot the selected tests produce
(and deletes those a test says must not exist) instead of comparing; review the diff before
committing it (``git diff tests/``).
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Optional, Union

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

Content = Union[str, bytes, None]


def _as_bytes(content: Content) -> Optional[bytes]:
    return content.encode("utf-8") if isinstance(content, str) else content


def check(path: Path, actual: Content, regen: bool) -> None:
    want = _as_bytes(actual)
    if regen:
        if want is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.is_file() or path.read_bytes() != want:
                path.write_bytes(want)
        return
    if want is None:
        assert not path.exists(), f"{path} is stale (nothing to compare it with): run pytest with --regen"
        return
    if not path.is_file():
        pytest.fail(f"no snapshot {path}: run this test with --regen, then review what it wrote", pytrace=False)
    got = path.read_bytes()
    if got != want:
        # compared as text so that pytest shows a line diff; then as bytes (line ends, BOMs)
        assert want.decode("utf-8", "replace") == got.decode("utf-8", "replace"), \
            f"{path} differs (run with --regen to accept the new output, then review the diff)"
        assert want == got, f"{path} differs in its bytes (line ends?)"


# ------------------------------------------------------------------------ fixture folders
# A fixture folder holds case files; each is linted through the CLI (in-process) and its findings,
# and the fixed bytes where a fix applies, are kept as snapshots in ``snapshots/``. The rules'
# folders (tests/rules/<CODE>/, linted with --select <CODE>) and the formats' folders
# (tests/formats/<name>/, every default rule) share this harness; tests/README.md describes it.

SNAPSHOTS = "snapshots"
HARNESS = "harness.toml"
_DIRECTIVE = re.compile(r"#\s*test-(target|args|expect):\s*(.*?)\s*$")
_HARNESS_KEYS = {"database", "target", "select"}


def cases(folder: Path) -> list[Path]:
    """The case files of a folder: every file directly in it but settings (``*.toml``) and the
    folder's own test modules (``test_*.py``, ``conftest.py``)."""
    return sorted(f for f in folder.iterdir() if f.is_file() and f.suffix != ".toml"
                  and not (f.suffix == ".py" and (f.name.startswith("test_") or f.name == "conftest.py")))


def harness(folder: Path, default_select: Optional[list[str]]) -> dict:
    """The folder's ``harness.toml`` over the defaults (``select`` None: every default rule)."""
    p = folder / HARNESS
    conf = tomllib.loads(p.read_text(encoding="utf-8")) if p.is_file() else {}
    assert set(conf) <= _HARNESS_KEYS, f"{p}: unknown keys {sorted(set(conf) - _HARNESS_KEYS)}"
    assert conf.get("database", "deploy") in ("deploy", "synthetic"), f"{p}: database is deploy or synthetic"
    return {"database": conf.get("database", "deploy"), "target": conf.get("target", "0.27.1"),
            "select": conf.get("select", default_select)}


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


def _head(conf: dict, target: str) -> list[str]:
    return ((["--select", ",".join(conf["select"])] if conf["select"] else [])
            + (["-t", target] if target != "none" else []))


def command(case: Path, folder: Path, default_select: Optional[list[str]]) -> list[str]:
    """The CLI arguments of one case, with ``{here}`` standing for the folder."""
    conf = harness(case.parent, default_select)
    target, args, _ = directives(case, conf["target"])
    return _head(conf, target) + [a.replace("{here}", str(folder)) for a in args]


def lint_json(db: Path, monkeypatch, argv: list[str]) -> list[dict]:
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    monkeypatch.setenv("VLLM_LINT_DB", str(db))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")
    r = CliRunner().invoke(main, ["--output-format", "json", *argv], catch_exceptions=False)
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout)


def render(case: Path, findings: list[dict], default_select: Optional[list[str]]) -> str:
    """The snapshot text: the command, then one finding a line (span, code, severity, the release
    it was checked against, message) with its fix title below it."""
    conf = harness(case.parent, default_select)
    target, args, _ = directives(case, conf["target"])
    lines = ["# " + shlex.join(["vllm-lint"] + _head(conf, target) + args + [case.name])]
    here = str(case.parent)
    for d in sorted(findings, key=lambda d: (d["location"]["row"], d["location"]["column"], d["code"])):
        loc, end = d["location"], d["end_location"]
        at = f" ({d['target_version']})" if d.get("target_version") else ""
        lines.append(f"{loc['row']}:{loc['column']}-{end['row']}:{end['column']} {d['code']} {d['severity']}{at}: "
                     f"{d['message'].replace(here, '{here}')}")
        if d.get("fix"):
            lines.append(f"    fix ({d['fix']['applicability']}): {d['fix']['message'].replace(here, '{here}')}")
    return "\n".join(lines) + "\n"


def check_case(case: Path, databases: dict, monkeypatch, tmp_path: Path, snapshot,
               default_select: Optional[list[str]]) -> list[dict]:
    """Lint one case, compare its findings (and, where a fix applies, the bytes ``--fix`` writes in
    a copy of the folder) with its snapshots; check its ``test-expect`` lines. Its findings."""
    folder = case.parent
    db = databases[harness(folder, default_select)["database"]]
    findings = lint_json(db, monkeypatch, [*command(case, folder, default_select), str(case)])
    snapshot(folder / SNAPSHOTS / (case.name + ".snap"), render(case, findings, default_select))
    _, _, expect = directives(case, "none")
    for code, row, sev in expect:
        assert any((d["code"], d["location"]["row"], d["severity"]) == (code, row, sev) for d in findings), \
            f"{case.name}: test-expect {code} {row} {sev} is not among the findings"
    fixed = None
    if any(d.get("fix") for d in findings):
        copy = tmp_path / folder.name
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(SNAPSHOTS))
        lint_json(db, monkeypatch, ["--fix", *command(case, copy, default_select), str(copy / case.name)])
        after = (copy / case.name).read_bytes()
        fixed = after if after != case.read_bytes() else None
    snapshot(folder / SNAPSHOTS / (case.name + ".fixed"), fixed)
    return findings


def stale_snapshots(folder: Path, snapshot) -> None:
    """Delete (with --regen) or fail on the snapshots of cases that no longer exist."""
    names = {c.name for c in cases(folder)}
    for snap in sorted((folder / SNAPSHOTS).glob("*")) if (folder / SNAPSHOTS).is_dir() else []:
        if snap.name.rsplit(".", 1)[0] not in names:
            snapshot(snap, None)
