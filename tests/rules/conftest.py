from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_hf(isolated_hf):
    """No test reads the user's Hugging Face cache or the vllm-lint cache, or reaches the hub."""
    yield


@pytest.fixture
def lint(deploy_db_path, monkeypatch):
    """Run the CLI in-process against the deployment synthetic database."""
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    monkeypatch.setenv("VLLM_LINT_DB", str(deploy_db_path))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")

    def run(*args):
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return run
