"""The process pool (vllm_lint.parallel) gives the findings of a sequential run, file for file."""

from __future__ import annotations

import os

import pytest


def _tree(root) -> None:
    flags = ["--tensor-parallel-size 2", "--swap-space 4", "--max-model-len 8192", "--no-such-flag 1",
             "--use-v2-block-manager", "--gpu-memory-utilization 0.9"]
    for i in range(30):
        d = root / f"d{i % 4}"
        d.mkdir(exist_ok=True)
        (d / f"s{i}.sh").write_text(f"#!/bin/sh\nset -e\nvllm serve facebook/opt-125m {flags[i % 6]} {flags[(i + 1) % 6]}\n")
        (d / f"p{i}.sh").write_text("#!/bin/sh\necho hello\n")
    for i in range(12):
        (root / f"k{i}.yaml").write_text(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  template:\n    spec:\n"
            "      containers:\n        - name: vllm\n          image: vllm/vllm-openai:latest\n"
            f"          args: [\"--model\", \"facebook/opt-125m\", \"{flags[i % 6].split()[0]}\", \"1\"]\n")
    for i in range(8):
        (root / f"m{i}.py").write_text(f"from vllm import LLM\n\nllm = LLM(model='facebook/opt-125m', swap_space={i})\n")


def _findings(results) -> list:
    return [(r.path, d.code, d.row, d.column, d.message) for r in results for d in r.diagnostics]


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the pool is used only with two or more CPUs")
def test_pool_gives_the_sequential_findings(synth_db_path, tmp_path, monkeypatch):
    from vllm_lint import parallel
    from vllm_lint.engine import Linter, discover
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    settings = Settings()
    targets, _ = discover(["."], settings)
    assert len(targets) >= parallel.PARALLEL_MIN_FILES

    def linter():
        return Linter(Database(synth_db_path), settings, select_rules([], []))

    sequential = [linter().lint_file(t) for t in targets]
    assert any(r.diagnostics for r in sequential)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_PARSED", 5)  # the pool starts after a few deferred files
    monkeypatch.setattr(parallel, "CHUNK", 3)
    warmed = []
    real_warm_up = parallel._warm_up

    def warm_up(*args):
        warmed.append(len(args[5]))  # formats linted in this process before forking
        return real_warm_up(*args)

    monkeypatch.setattr(parallel, "_warm_up", warm_up)
    pooled = parallel.lint_all(linter(), targets, False, db_path=str(synth_db_path))
    assert warmed and warmed[0] >= 1
    assert _findings(pooled) == _findings(sequential)
    assert [r.verdict for r in pooled] == [r.verdict for r in sequential]


def test_jobs_one_lints_in_this_process_only(synth_db_path, tmp_path, monkeypatch):
    from vllm_lint import parallel
    from vllm_lint.engine import Linter, discover
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    settings = Settings()
    targets, _ = discover(["."], settings)

    def no_pool(*a, **k):
        raise AssertionError("a worker process was started")

    monkeypatch.setattr(parallel, "_pool", no_pool)
    linter = Linter(Database(synth_db_path), settings, select_rules([], []))
    sequential = [Linter(Database(synth_db_path), settings, select_rules([], [])).lint_file(t) for t in targets]
    assert _findings(parallel.lint_all(linter, targets, False, jobs=1)) == _findings(sequential)


def test_negative_jobs_is_a_usage_error(run_cli, tmp_path):
    r = run_cli("--jobs", "-1", str(tmp_path))
    assert r.exit_code == 2 and "--jobs" in r.stderr
