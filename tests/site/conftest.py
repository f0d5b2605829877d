"""The website built once per session from the shipped database (``site_dir``), and helpers to
read its pages."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def shipped_db():
    from vllm_lint.surface.db import Database

    return Database()


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory, shipped_db) -> Path:
    from vllm_lint.site.build import build_site

    out = tmp_path_factory.mktemp("site") / "out"
    build_site(out, shipped_db)
    return out
