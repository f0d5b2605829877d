"""A repository written file by file for the release tests: ``repo`` (a folder holding ``.git``,
the root the tool looks for) and ``put`` (one file at a path below it)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def repo(tmp_path):
    (tmp_path / ".git").mkdir()
    return tmp_path


def put(root: Path, rel: str, text: str) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    return p
