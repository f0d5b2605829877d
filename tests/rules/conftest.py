from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import deploy_db  # noqa: E402


@pytest.fixture(scope="session")
def deploy_db_path(tmp_path_factory) -> Path:
    return deploy_db.build(tmp_path_factory.mktemp("deploydb"))


@pytest.fixture(autouse=True)
def _isolated_hf(tmp_path, monkeypatch):
    """No test reads the user's Hugging Face cache or the vllm-lint cache, or reaches the hub."""
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
def lint(deploy_db_path, monkeypatch):
    """Run the CLI in-process against the deployment synthetic database."""
    from click.testing import CliRunner

    from vllm_lint.cli import main

    monkeypatch.setenv("VLLM_LINT_DB", str(deploy_db_path))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")

    def run(*args):
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return run
