from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import synthetic_db  # noqa: E402


@pytest.fixture(scope="session")
def synth_db_path(tmp_path_factory) -> Path:
    return synthetic_db.build(tmp_path_factory.mktemp("db"))


@pytest.fixture
def synth_db(synth_db_path):
    from vllm_lint.surface.db import Database

    return Database(synth_db_path)


@pytest.fixture
def run_cli(synth_db_path, monkeypatch):
    """Invoke the CLI in-process against the synthetic database."""
    from click.testing import CliRunner

    from vllm_lint.cli import main

    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)

    def run(*args, input=None):
        return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)

    return run
