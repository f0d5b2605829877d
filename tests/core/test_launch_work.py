"""The per-launch work a plain lint leaves out (issue 31, seventh pass), checked by answers, never
by wall-clock times: a linter that keeps no ``--verbose`` notes finds exactly what one that keeps
them finds, on every rule fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[1] / "rules"


def _inputs() -> list[Path]:
    return [p for p in sorted(RULES.glob("VL*/**/*"))
            if p.is_file() and not p.name.endswith((".snap", ".fixed")) and p.name != "harness.toml"]


def _shown(diags) -> list[tuple]:
    return [(d.code, d.message, d.severity, d.option, d.span and (d.span.start, d.span.end), d.row, d.column,
             d.end_row, d.end_column, d.fix_blocked,
             d.fix and (d.fix.applicability, d.fix.message, [(e.span.start, e.span.end, e.content) for e in d.fix.edits]))
            for d in diags]


@pytest.fixture(scope="module")
def linters():
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    db, rules = Database(), select_rules([], [])
    return Linter(db, Settings(), rules), Linter(db, Settings(), rules, notes=False)


def test_a_lint_without_notes_finds_what_one_with_notes_finds(linters):
    noted, plain = linters
    files = _inputs()
    assert len(files) > 250
    with_notes = 0
    for path in files:
        data = path.read_bytes()
        a = noted.check(str(path), data, "auto")
        b = plain.check(str(path), data, "auto")
        assert _shown(b.diagnostics) == _shown(a.diagnostics), path
        with_notes += bool(a.notes)
        # what a plain lint still notes is the file's own (how it was read), never a launch's
        assert not any(n.startswith(("checked against vLLM", "no release named")) or " skipped: " in n
                       for n in b.notes), path
    assert with_notes > 200


def test_the_accepted_range_is_computed_only_where_it_is_read(linters, monkeypatch, tmp_path):
    """A launch naming no release: its accepted range goes into --verbose and into the messages of
    its VL1xx/VL2xx findings; a plain lint of a launch without one does not compute it."""
    from vllm_lint.pipeline import engine

    calls: list = []
    real = engine.accepted_range
    monkeypatch.setattr(engine, "accepted_range", lambda *a: calls.append(a) or real(*a))
    noted, plain = linters
    clean = tmp_path / "clean.sh"
    clean.write_bytes(b"vllm serve m --max-num-seqs 8\n")
    removed = tmp_path / "removed.sh"
    removed.write_bytes(b"vllm serve m --max-num-seqs 8 --use-v2-block-manager\n")
    plain.check(str(clean), clean.read_bytes(), "auto")
    assert calls == []
    noted.check(str(clean), clean.read_bytes(), "auto")
    assert len(calls) == 1
    a = noted.check(str(removed), removed.read_bytes(), "auto")
    b = plain.check(str(removed), removed.read_bytes(), "auto")
    assert len(calls) == 3
    assert _shown(a.diagnostics) == _shown(b.diagnostics)
    assert any("no release named" in d.message for d in b.diagnostics)


def test_a_release_parses_its_version_once():
    """``Surface.v`` is parsed once per release (the era checks ask it per launch), and the
    checks built on it answer as the version compared each time did."""
    from vllm_lint.surface.db import Database
    from vllm_lint.surface.version import Version

    db = Database()
    for version in db.versions[::7] + [db.versions[-1]]:
        s = db.surface(version)
        assert s.v is s.v and s.v == Version(version)
        assert s.json_types_validated({}) == (Version(version) >= Version("0.9.1"))
        assert s.json_types_validated({"model": "pydantic"})


def test_the_rules_check_functions_follow_the_rules(linters):
    """The engine lists the rules' check functions once (``Linter._checks``), again when its rules
    are replaced."""
    from vllm_lint.rules.base import select_rules

    noted, _ = linters
    assert [r for r, *_ in noted._checks] == [r for r in noted.rules if r._check is not None]
    before = noted.rules
    try:
        noted.rules = select_rules(["VL101"], [])
        assert [r.code for r, *_ in noted._checks] == ["VL101"]
    finally:
        noted.rules = before


def test_a_plain_lint_looks_up_no_model_for_vl407_on_a_gpu_of_unknown_memory(linters, monkeypatch, tmp_path):
    """VL407 needs the GPU's memory before any finding: a plain lint passes over a launch whose GPU
    is unknown before its model is looked up; a lint keeping notes still names the model (it says
    which one it read for --verbose). VL407 alone: the other rules that read the model do so for a
    tensor-parallel launch, a MoE model's settings or a context length, which these launches lack."""
    from vllm_lint.knowledge import models
    from vllm_lint.rules.base import select_rules

    looked_up: list = []
    real = models.resolve
    monkeypatch.setattr(models, "resolve", lambda *a, **k: looked_up.append(a) or real(*a, **k))
    noted, plain = linters
    saved = noted.rules, plain.rules
    try:
        noted.rules = plain.rules = select_rules(["VL407"], [])
        unknown = tmp_path / "unknown.sh"
        unknown.write_bytes(b"vllm serve meta-llama/Llama-3.1-70B-Instruct\n")
        plain.check(str(unknown), unknown.read_bytes(), "auto")
        assert looked_up == []
        noted.check(str(unknown), unknown.read_bytes(), "auto")
        assert len(looked_up) == 1
        known = tmp_path / "h100.yaml"  # (a GPU the table knows: the model is looked up, the finding made)
        known.write_bytes(b"resources:\n  accelerators: H100:1\nrun: vllm serve meta-llama/Llama-3.1-405B-Instruct\n")
        a = plain.check(str(known), known.read_bytes(), "auto")
        assert len(looked_up) == 2
        assert [d.code for d in a.diagnostics] == ["VL407"]
    finally:
        noted.rules, plain.rules = saved


def test_a_folder_is_listed_once_for_the_neighbours_of_its_files(linters, monkeypatch, tmp_path):
    """The Dockerfiles and Compose files a file's own VLLM_ variables may go to (``reach``) are
    listed once per folder for a linter's run, not once per file of the folder; what each file
    finds there is the same."""
    import os
    import sys

    from vllm_lint import reach

    (tmp_path / ".git").mkdir()
    (tmp_path / "Dockerfile").write_bytes(b"FROM vllm/vllm-openai:v0.8.5\nARG VLLM_MY_TAG\n")
    listed: list = []  # the folders reach lists (the release choice lists them too, once a run)
    real = os.listdir

    def listdir(p="."):
        if sys._getframe(1).f_code.co_filename == reach.__file__:
            listed.append(str(p))
        return real(p)

    monkeypatch.setattr(os, "listdir", listdir)
    noted, plain = linters
    from vllm_lint.pipeline.engine import Linter

    fresh = Linter(plain.db, plain.settings, plain.rules, notes=False)
    found = []
    for name in ("a.sh", "b.sh"):
        f = tmp_path / name
        f.write_bytes(b"export VLLM_MY_TAG=1\nVLLM_NOT_A_SETTING=1 vllm serve m\n")
        found.append(_shown(fresh.check(str(f), f.read_bytes(), "auto").diagnostics))
    assert listed.count(str(tmp_path)) == 1
    assert found[0] and [d[:2] for d in found[0]] == [d[:2] for d in found[1]]
