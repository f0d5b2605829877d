"""Fixtures for the integration tests: the synthetic database (tests/synthetic_db.py), the CLI
run in-process against it, and a small project whose files produce findings in every format."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import synthetic_db  # noqa: E402

from integration_data import PROJECT, REPO  # noqa: E402,F401


@pytest.fixture(scope="session")
def synth_db_path(tmp_path_factory) -> Path:
    return synthetic_db.build(tmp_path_factory.mktemp("db"))


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A project of files with findings at vLLM 0.27.1; the working directory is its root."""
    root = tmp_path / "proj"
    for rel, text in PROJECT.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode())
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def run_cli(synth_db_path, monkeypatch):
    """Invoke the CLI in-process against the synthetic database, without the result cache."""
    from click.testing import CliRunner

    from vllm_lint.cli import main

    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)

    def run(*args, input=None, env=None):
        return CliRunner().invoke(main, list(args), input=input, env=env, catch_exceptions=False)

    return run
