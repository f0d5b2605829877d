"""The rules' ``triggers`` (issue 31, eighth pass): a rule that declares the options or variables
without which it says nothing is not called for a launch naming none of them
(``pipeline.engine.Linter._run``). These tests hold every declaration to its word by answers, not
times: each such rule, called on every context of every rule and format fixture (and the examples),
once with the settings the fixtures name and once on known GPUs, says nothing (no finding, no
``--verbose`` note) where its triggers are absent; a linter that uses the index finds and notes
exactly what one that calls every rule does; and a wrong declaration is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
_NOT_INPUT = (".snap", ".fixed", ".pyc")


def _inputs() -> list[Path]:
    out = []
    for root in (TESTS / "rules", TESTS / "formats", TESTS.parent / "examples"):
        out += [p for p in sorted(root.rglob("*"))
                if p.is_file() and not p.name.endswith(_NOT_INPUT) and p.name != "harness.toml"
                and "__pycache__" not in p.parts]
    return out


@pytest.fixture(scope="module")
def setup():
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    return Database(), select_rules([], [], preview=True), [Settings(), Settings(gpu="H100", gpus=8)]


def _ungated(db, settings, rules, notes=True):
    from vllm_lint.pipeline.engine import Linter

    class Ungated(Linter):
        index_rules = False

    return Ungated(db, settings, rules, notes=notes)


def _violations(setup, declared: dict) -> list[tuple]:
    """(rule, file, what it said) wherever a rule of ``declared`` (code -> triggers) said something
    of a context naming none of its triggers: every rule called on every context (no index)."""
    from vllm_lint.pipeline.engine import _named

    db, rules, settings_list = setup
    found: list[tuple] = []
    wrapped = []
    for r in rules:
        if r.code not in declared or r._check is None:
            wrapped.append(r)
            continue
        triggers, inner, code = declared[r.code], r._check, r.code

        def watched(ctx, inner=inner, triggers=triggers, code=code):
            before = len(ctx.skipped)
            out = list(inner(ctx))
            if triggers.isdisjoint(_named(ctx)) and (out or len(ctx.skipped) != before):
                found.append((code, ctx.path, [d.message for d in out] + ctx.skipped[before:]))
            return out

        from vllm_lint.record import replace

        wrapped.append(replace(r, _check=watched, triggers=None))
    for settings in settings_list:
        linter = _ungated(db, settings, wrapped)
        for path in _inputs():
            linter.verbose = []
            linter.check(str(path), path.read_bytes(), "auto")
    return found


def test_rules_with_triggers_say_nothing_without_them(setup):
    _db, rules, _s = setup
    declared = {r.code: r.triggers for r in rules if r.triggers is not None}
    assert len(declared) >= 8
    assert _violations(setup, declared) == []


def test_a_wrong_declaration_is_caught(setup):
    """VL301 and VL402 said to need an option their findings do not (their fixtures set tensor
    parallelism without it): the check above finds them out."""
    got = _violations(setup, {"VL301": frozenset({"max_model_len"}), "VL402": frozenset({"enable_eplb"})})
    assert {code for code, _p, _w in got} == {"VL301", "VL402"}


def _shown(diags) -> list[tuple]:
    return [(d.code, d.message, d.severity, d.option, d.span and (d.span.start, d.span.end), d.fix_blocked,
             d.fix and (d.fix.applicability, d.fix.message, [(e.span.start, e.span.end, e.content) for e in d.fix.edits]))
            for d in diags]


@pytest.mark.parametrize("notes", [True, False])
def test_the_index_changes_no_finding_and_no_note(setup, notes):
    from vllm_lint.pipeline.engine import Linter

    db, rules, settings_list = setup
    files = _inputs()
    assert len(files) > 400
    skipped = 0
    for settings in settings_list:
        gated, every = Linter(db, settings, rules, notes=notes), _ungated(db, settings, rules, notes=notes)
        for path in files:
            data = path.read_bytes()
            gated.verbose, every.verbose = [], []
            a, b = gated.check(str(path), data, "auto"), every.check(str(path), data, "auto")
            assert _shown(a.diagnostics) == _shown(b.diagnostics), path
            assert a.notes == b.notes, path
            skipped += bool(a.analysis.launches)
    assert skipped > 300
