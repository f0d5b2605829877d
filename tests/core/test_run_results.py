"""A run's results as they complete (vllm_lint.pipeline.results.RunResults): the results a report
needs kept in the walk's order, the rest only counted, the summary's counts as if every result had
been kept, and a file reached as another's ``--config`` file kept once, where the ``--config``
reading comes (the order ``parallel.lint_all`` gave before results were streamed)."""

from __future__ import annotations

import os
import random

import pytest

from vllm_lint.pipeline.discovery import Target
from vllm_lint.pipeline.engine import NO_LAUNCH, NOT_SUPPORTED, FileResult
from vllm_lint.pipeline.results import RunResults
from vllm_lint.rules.base import Diagnostic


def _flatten(results: list) -> list:
    """The order every result was given in before streaming (parallel._flatten, as it was)."""
    if not any(r.related for r in results):
        return list(results)
    out, seen = [], set()
    for r in results:
        for x in [r, *r.related]:
            key = os.path.realpath(x.path)
            if key in seen:
                if x is not r:
                    out = [y for y in out if os.path.realpath(y.path) != key] + [x]
                continue
            seen.add(key)
            out.append(x)
    return out


def _result(path: str, kind: str) -> FileResult:
    r = FileResult(path)
    if kind == "finding":
        r.read = True
        r.diagnostics = [Diagnostic("VL101", "gone", path, None, line=1)]
    elif kind == "clean":
        r.read = True
    elif kind == "defaulted":
        r.read = r.defaulted = True
    elif kind == "newer":
        r.read = r.defaulted = True
        r.newer = ["9.9.9"]
    elif kind == "unread":
        r.unread = NO_LAUNCH
    elif kind == "unsupported":
        r.unread = NOT_SUPPORTED
    r.verbose = ["checked against vLLM 0.9.0"] if r.read else []
    return r


def _summary(results: list) -> tuple:
    """The counts the summary reads, over every result (as before streaming)."""
    return (sum(1 for r in results if r.read), sum(1 for r in results if not r.read and r.unread),
            sum(1 for r in results if r.defaulted and not r.newer), [r.path for r in results if r.newer])


def _run(results: list, targets: list, **kw) -> RunResults:
    targets = list(targets)
    run = RunResults(targets, **kw)
    for i, r in enumerate(results):
        run.add(i, run.slim(r))
        targets[i] = None  # (as parallel.lint_each releases them)
    run.done()
    return run


KINDS = ("finding", "clean", "defaulted", "newer", "unread", "unsupported", "nothing")


@pytest.mark.parametrize("seed", range(40))
def test_streamed_results_give_the_order_and_counts_of_every_result(tmp_path, monkeypatch, seed):
    monkeypatch.chdir(tmp_path)
    rnd = random.Random(seed)
    names = [f"f{i}.yaml" for i in range(30)]
    for n in names:
        (tmp_path / n).write_text("x: 1\n")
    targets = [Target(n, rnd.random() < 0.1) for n in names]

    def results() -> list:
        rnd2 = random.Random(seed)
        out = [_result(t.path, rnd2.choice(KINDS)) for t in targets]
        for _ in range(rnd2.choice((0, 0, 1, 3))):  # --config files the launches named, some twice
            parent = rnd2.randrange(len(out))
            ref = _result(rnd2.choice(names), rnd2.choice(KINDS))
            ref.path = rnd2.choice((ref.path, os.path.abspath(ref.path)))
            out[parent].related = [*out[parent].related, ref]
        return out

    every = _flatten(results())
    kept_all = _run(results(), targets, every_file=True)
    assert [(r.path, r.diagnostics) for r in kept_all.results] == [(r.path, r.diagnostics) for r in every]
    for verbose in (False, True):
        run = _run(results(), targets, verbose=verbose)
        explicit = {t.path for t in targets if t.explicit}
        wanted = [r for r in every if r.diagnostics or r.newer or (verbose and (r.verbose or r.unread))
                  or (r.unread == NOT_SUPPORTED and r.path in explicit)]
        assert [r.path for r in run.results] == [r.path for r in wanted]
        assert (run.read_files(), run.unread_files(), run.defaulted_files(), [r.path for r in run.newer()]) \
            == _summary(every)
        if verbose:
            assert [r.path for r in run.unread()] == [r.path for r in every if not r.read and r.unread]
        else:
            assert all(not r.verbose for r in run.results)  # the engine's notes are not kept
        assert [r.path for r in run.unsupported_named()] == \
            [r.path for r in every if r.unread == NOT_SUPPORTED and r.path in explicit]


def test_a_file_with_nothing_to_report_is_a_few_bytes_of_counts():
    import pickle

    def clean() -> FileResult:
        r = _result("a.sh", "clean")
        r.stat_key, r.verdict, r.reads = (10, 123456789), "clean|", (("b.yaml", "k"),)
        return r

    run = RunResults([Target("a.sh", False)])
    slim = run.slim(clean())
    assert isinstance(slim, int) and len(pickle.dumps(slim)) < 8
    assert run.slim(_result("a.sh", "finding")).diagnostics  # a finding is sent whole
    noted = RunResults([Target("a.sh", False)], cache=object()).slim(clean())
    assert isinstance(noted, FileResult) and noted.reads  # the cache notes it in the main process: sent whole


def test_a_run_keeps_only_the_results_it_reports(synth_db_path, tmp_path, monkeypatch):
    """Through the command's own run step: a tree of clean files and a few with findings keeps
    the few, and the summary counts every file, in one process and shared with a worker."""
    from vllm_lint.cli import lint_command

    for i in range(90):
        (tmp_path / f"ok{i}.sh").write_text("#!/bin/sh\necho hello\n")
    for i in range(5):
        (tmp_path / f"run{i}.sh").write_text("#!/bin/sh\nvllm serve facebook/opt-125m --no-such-flag 1\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))
    for jobs in (1, 2):
        o = lint_command.LintOptions((".",), no_cache=True, jobs=jobs)
        lint_command.validate(o)
        ran = lint_command.run(o, lint_command.prepare(o))
        assert sorted(r.path for r in ran.results) == [f"run{i}.sh" for i in range(5)]
        assert ran.read_files() == 5 and ran.unread_files() == 90
