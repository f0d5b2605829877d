"""Fixtures for the integration tests: a small project whose files produce findings in every
format (the synthetic database and ``run_cli`` come from tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from integration_data import PROJECT, REPO  # noqa: E402,F401


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
