from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import audit_db  # noqa: E402


@pytest.fixture(scope="session")
def audit_db_path(tmp_path_factory) -> Path:
    return audit_db.build(tmp_path_factory.mktemp("auditdb"))


@pytest.fixture
def adb(audit_db_path):
    from vllm_lint.surface.db import Database

    return Database(audit_db_path)


@pytest.fixture
def run_audit(audit_db_path, monkeypatch):
    """Invoke `vllm-lint audit ...` in-process against the audit database."""
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    monkeypatch.setenv("VLLM_LINT_DB", str(audit_db_path))
    monkeypatch.delenv("NO_COLOR", raising=False)

    def run(*args):
        return CliRunner().invoke(main, ["audit", *args], catch_exceptions=False)

    return run
