"""Shared test configuration and fixtures: the synthetic database (tests/synthetic_db.py, built
once per session) and the CLI run in-process against it.

Tests are offline and deterministic by default. Tests marked ``network`` reach PyPI and run only
with ``--run-network``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synthetic_db  # noqa: E402

# no user database (``db update`` from an install writes one) reaches a test, nor its subprocesses
os.environ["VLLM_LINT_DATA_DIR"] = tempfile.mkdtemp(prefix="vllm-lint-test-data-")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-network", action="store_true", default=False,
                     help="run tests that reach PyPI or GitHub")
    parser.addoption("--regen", action="store_true", default=False,
                     help="rewrite the snapshots (tests/rules, tests/e2e) instead of comparing with them")


@pytest.fixture
def snapshot(request):
    """``snapshot(path, content)``: compare ``content`` with the file (tests/snapshots.py)."""
    import snapshots

    regen = request.config.getoption("--regen")
    return lambda path, content: snapshots.check(path, content, regen)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-network"):
        return
    skip = pytest.mark.skip(reason="reaches the network; pass --run-network to run")
    for item in items:
        if "network" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def synth_db_path(tmp_path_factory) -> Path:
    return synthetic_db.build(tmp_path_factory.mktemp("db"))


@pytest.fixture(scope="session")
def deploy_db_path(tmp_path_factory) -> Path:
    """The deployment rules' synthetic database (tests/rules/deploy_db.py), built once per worker."""
    sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
    import deploy_db

    return deploy_db.build(tmp_path_factory.mktemp("deploydb"))


@pytest.fixture
def fixture_databases(request):
    """The databases a fixture folder's ``harness.toml`` can name (tests/snapshots.py), each built
    at first use."""
    return {"deploy": request.getfixturevalue("deploy_db_path"), "synthetic": request.getfixturevalue("synth_db_path")}


@pytest.fixture(scope="session", autouse=True)
def _user_cache_of_the_session(tmp_path_factory):
    """The user cache folder of the test session (the result cache's secret, model facts, the site's
    compiled templates) is a temporary one, never the real one: tests write only under tmp."""
    patch = pytest.MonkeyPatch()
    patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))
    yield
    patch.undo()


@pytest.fixture
def isolated_hf(tmp_path, monkeypatch):
    """No Hugging Face cache of the user, no vllm-lint cache, no hub: model facts come only from
    what a test puts beside its files."""
    from vllm_lint.knowledge import models

    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.delenv("HUGGINGFACE_HUB_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setattr(models, "hf_cache_dirs", lambda: [tmp_path / "hf-home" / "hub"])
    monkeypatch.setattr(models, "_cache_dir", lambda: tmp_path / "xdg-cache" / "vllm-lint" / "hf-configs")
    models.clear_cache()
    yield
    models.clear_cache()


@pytest.fixture
def synth_db(synth_db_path):
    from vllm_lint.surface.db import Database

    return Database(synth_db_path)


@pytest.fixture
def run_cli(synth_db_path, monkeypatch):
    """Invoke the CLI in-process against the synthetic database, without the result cache."""
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)

    def run(*args, input=None, env=None):
        return CliRunner().invoke(main, list(args), input=input, env=env, catch_exceptions=False)

    return run


@pytest.fixture
def workers_only(monkeypatch):
    """``vllm_lint.pipeline.parallel`` with every task drawn by the forked workers (this process draws none),
    so that a test sees what workers send back: deterministic, where a race for the tasks is not.
    Returns the list of forks made (one entry each)."""
    import os

    from vllm_lint.pipeline import parallel

    main = os.getpid()
    real_take, real_fork = parallel._take, os.fork
    forks: list[int] = []

    def take(queue_r):
        return real_take(queue_r) if os.getpid() != main else iter(())

    def fork():
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(parallel, "_take", take)
    monkeypatch.setattr(os, "fork", fork)
    return forks
