"""End-to-end corpus: real-shaped deployment files linted with the SHIPPED flag database.

No ``VLLM_LINT_DB`` override: the database is the one ``importlib.resources`` finds in the
installed package (``vllm_lint.flag_db``). Until ``flag_db/index.json`` exists these tests skip
with that reason.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from e2e_helpers import isolated, shipped_db  # noqa: E402


@pytest.fixture(scope="session")
def shipped_db_path() -> Path:
    path = shipped_db()
    if not (path / "index.json").is_file():
        pytest.skip(f"the shipped flag database has no index.json yet ({path}); run `vllm-lint db build`")
    return path


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    """The shipped database, no result cache, no user Hugging Face cache, no hub."""
    with isolated(monkeypatch, tmp_path):
        yield
