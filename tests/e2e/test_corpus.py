"""The end-to-end corpus (tests/e2e/corpus/) linted the way a user runs vllm-lint on a repository,
with the shipped flag database, compared exactly with tests/e2e/expected/<file>.json.

Each sidecar lists
  * ``launches``: ``[line, target, reason]`` for every launch found (``--verbose``'s "checked
    against" lines), so a launch that stops being found fails the test;
  * ``findings``: ``[code, line, column, option, target, fixable]``.
A target ``"newest"`` stands for the newest release in the database (launches with no version
hint). Expectations were written after checking each fact with ``vllm-lint flags show``;
``test_expectations_agree_with_the_timeline`` re-checks the version facts they rest on.

Regenerate after a deliberate change (then review the diff line by line):
    python -m pytest tests/e2e --regen
"""

from __future__ import annotations

import ast
import difflib
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from e2e_helpers import CORPUS, EXPECTED, isolated, run_cli, run_json, shipped_db  # noqa: E402

_CHECKED = re.compile(r"^(?P<path>.+?): checked against vLLM (?P<v>\S+) \((?P<why>.*)\)(?: at line (?P<line>\d+))?$")


def corpus_files() -> list[str]:
    return sorted(p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*") if p.is_file())


def sidecar(rel: str) -> Path:
    return EXPECTED / (rel + ".json")


def lint_corpus(root: Path, newest: str) -> dict[str, dict]:
    """{file: {"launches": [...], "findings": [...]}} for one `vllm-lint -v` run over root."""
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    r = CliRunner().invoke(main, ["--output-format", "json", "-v", str(root)], catch_exceptions=False)
    assert r.exit_code in (0, 1), r.output
    res: dict[str, dict] = {}

    def rel(p: str) -> str:
        return Path(p).resolve().relative_to(root.resolve()).as_posix()

    defaulted: set[str] = set()  # files with a launch checked against the newest release by default
    for line in r.stderr.splitlines():
        m = _CHECKED.match(line)
        if m:
            reason = re.sub(r", via --config in \S+", "", m["why"])  # the referring path is absolute
            target = m["v"]
            if reason.startswith("newest release"):
                target = "newest"
                defaulted.add(rel(m["path"]))
            res.setdefault(rel(m["path"]), {"launches": [], "findings": []})["launches"].append(
                [int(m["line"]) if m["line"] else None, target, reason])
    for d in json.loads(r.stdout):
        fixable = d["fix"] is not None and d["fix"]["applicability"] == "safe"
        path, target = rel(d["filename"]), d.get("target_version")
        if path in defaulted and target == newest:
            target = "newest"
        res.setdefault(path, {"launches": [], "findings": []})["findings"].append(
            [d["code"], d["location"]["row"], d["location"]["column"], d.get("option"), target, fixable])
    for v in res.values():
        v["launches"].sort(key=lambda x: (x[0] or 0, x[1], x[2]))
        v["findings"].sort(key=lambda x: (x[1], x[2], x[0]))
    return res


def newest_release() -> str:
    from vllm_lint.surface.db import Database

    return Database(shipped_db()).versions[-1]


@pytest.fixture(scope="module")
def corpus_result(shipped_db_path, tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp, isolated(mp, tmp_path_factory.mktemp("e2e-home")):
        return lint_corpus(CORPUS, newest_release())


def sidecar_text(entry: dict) -> str:
    """A sidecar's bytes: one launch or finding a line, so that a diff shows each change."""
    lines = ["{", '  "launches": [']
    lines += [f"    {json.dumps(x)}," for x in entry["launches"]]
    lines[-1] = lines[-1].rstrip(",") if entry["launches"] else lines[-1]
    lines += ["  ],", '  "findings": [']
    lines += [f"    {json.dumps(x)}," for x in entry["findings"]]
    lines[-1] = lines[-1].rstrip(",") if entry["findings"] else lines[-1]
    lines += ["  ]", "}", ""]
    return "\n".join(lines)


def test_every_corpus_file_has_a_sidecar_and_no_sidecar_is_stale(snapshot, request):
    files = set(corpus_files())
    sidecars = {p.relative_to(EXPECTED).as_posix()[: -len(".json")] for p in EXPECTED.rglob("*.json")}
    for gone in sorted(sidecars - files):
        snapshot(sidecar(gone), None)  # expectations for files that are gone (deleted by --regen)
    if not request.config.getoption("--regen"):  # --regen writes them in test_findings_match_expectations
        assert files - sidecars == set(), "corpus files without expectations (run with --regen)"


@pytest.mark.parametrize("rel", corpus_files())
def test_findings_match_expectations(corpus_result, rel, snapshot):
    got = corpus_result.get(rel, {"launches": [], "findings": []})
    snapshot(sidecar(rel), sidecar_text(got))


def test_expectations_agree_with_the_timeline(shipped_db_path):
    """The version facts behind each expected VL101/VL102/VL104/VL106/VL201 finding, read
    straight from the database (not through the rules)."""
    from vllm_lint.surface.db import Database

    db = Database(shipped_db_path)
    newest = db.versions[-1]
    checked = 0
    for path in sorted(EXPECTED.rglob("*.json")):
        for code, _line, _col, option, target, _fix in json.loads(path.read_text())["findings"]:
            target = newest if target == "newest" else target
            if code not in ("VL101", "VL102", "VL104", "VL106", "VL201"):
                continue
            s = db.surface(target)
            if code == "VL201":
                assert option not in s.env and db.env_history(option) is not None, (path.name, option)
                checked += 1
                continue
            is_kwarg = not option.startswith("-")
            if is_kwarg:
                accepted = option in s.engine_args or option in s.llm_params or option in s.async_engine_args
                hist = db.engine_arg_history(option) or db.async_engine_arg_history(option)
            else:
                accepted = s.lookup(option) is not None
                hist = db.option_history(option)
            assert hist is not None, (path.name, option)
            if code == "VL106":
                assert accepted, (path.name, option, target)
            elif code == "VL104":
                assert not accepted and db.last_accepting(hist, target) is None, (path.name, option, target)
            else:
                assert not accepted and db.last_accepting(hist, target) is not None, (path.name, option, target)
            checked += 1
    assert checked > 40


def _fix_copy(tmp_path: Path) -> tuple[Path, Path]:
    orig = tmp_path / "orig"
    work = tmp_path / "work"
    shutil.copytree(CORPUS, orig)
    shutil.copytree(CORPUS, work)
    return orig, work


def _allowed_rows(findings: list[dict]) -> dict[str, set[int]]:
    """Rows the safe fixes of the first lint may touch: every row of every edit."""
    rows: dict[str, set[int]] = {}
    for d in findings:
        if d["fix"] is None or d["fix"]["applicability"] != "safe":
            continue
        s = rows.setdefault(d["filename"], set())
        s.add(d["location"]["row"])
        for e in d["fix"]["edits"]:
            s.update(range(e["location"]["row"], e["end_location"]["row"] + 1))
    return rows


def test_fix_converges_and_touches_only_the_reported_lines(shipped_db_path, tmp_path):
    orig, work = _fix_copy(tmp_path)
    before = run_json(work)
    allowed = _allowed_rows(before)
    assert allowed, "the corpus has safe fixes"
    r = run_cli("--fix", "--exit-zero", str(work))
    assert r.exit_code == 0, r.output

    after = run_json(work)
    left = [(d["filename"], d["location"]["row"], d["code"]) for d in after
            if d["fix"] is not None and d["fix"]["applicability"] == "safe"]
    assert left == [], "safe fixes left after --fix"

    snapshot = {p: p.read_bytes() for p in work.rglob("*") if p.is_file()}
    r = run_cli("--fix", "--exit-zero", str(work))
    assert r.exit_code == 0, r.output
    assert {p: p.read_bytes() for p in work.rglob("*") if p.is_file()} == snapshot, "a second --fix changed bytes"

    changed_files = set()
    for p in sorted(orig.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(orig).as_posix()
        a, b = p.read_bytes(), (work / rel).read_bytes()
        if a == b:
            continue
        changed_files.add(rel)
        assert rel in allowed, f"{rel} changed without a safe fix reported"
        a_lines, b_lines = a.splitlines(keepends=True), b.splitlines(keepends=True)
        for tag, i1, i2, _j1, _j2 in difflib.SequenceMatcher(None, a_lines, b_lines, autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            rows = set(range(i1 + 1, i2 + 1)) or {i1, i1 + 1}  # an insertion touches its neighbours
            assert rows & allowed[rel], f"{rel}: lines {sorted(rows)} changed, fixes were on {sorted(allowed[rel])}"
            if tag == "replace" or tag == "delete":
                assert rows <= allowed[rel], f"{rel}: lines {sorted(rows - allowed[rel])} changed without a fix"
        # line endings survive
        assert (b"\r\n" in a) == (b"\r\n" in b), rel
        # the fixed file still parses in its own format
        if rel.endswith(".py"):
            ast.parse(b)
        elif rel.endswith((".yaml", ".yml")) and b"{{" not in b:
            import yaml

            list(yaml.safe_load_all(b))
    assert changed_files == set(allowed)


def test_diff_is_the_golden_diff(shipped_db_path, tmp_path, monkeypatch, snapshot):
    """The exact fixes, as a reviewer sees them (`vllm-lint --diff .` from the corpus root)."""
    work = tmp_path / "corpus"
    shutil.copytree(CORPUS, work)
    monkeypatch.chdir(work)
    r = run_cli("--diff", ".")
    assert r.exit_code == 1, r.output
    snapshot(EXPECTED / "fix.diff", r.stdout)
