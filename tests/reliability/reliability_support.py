"""Helpers shared by the reliability tests, in a module of their own: several test folders have a
``conftest.py``, so ``from conftest import ...`` resolves to whichever was imported first."""

from __future__ import annotations

import os
from pathlib import Path


def cli_env(db: Path, **extra: str) -> dict[str, str]:
    """Environment for running ``python -m vllm_lint`` as a subprocess."""
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env.update({"VLLM_LINT_DB": str(db), "VLLM_LINT_NO_CACHE": "1", "PYTHONUTF8": "1"})
    env.update(extra)
    return env
