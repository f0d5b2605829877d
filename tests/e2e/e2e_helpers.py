"""Helpers for the end-to-end corpus tests (kept out of conftest.py: several test folders have
one, and a second module named ``conftest`` would shadow it)."""

from __future__ import annotations

import importlib.resources
import json
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
EXPECTED = HERE / "expected"


def shipped_db() -> Path:
    return Path(str(importlib.resources.files("vllm_lint.flag_db")))


@contextmanager
def isolated(mp, tmp: Path):
    """On MonkeyPatch ``mp``: the shipped database (no VLLM_LINT_DB), no result cache, no user
    Hugging Face cache, no hub."""
    from vllm_lint.knowledge import models

    mp.delenv("VLLM_LINT_DB", raising=False)
    mp.setenv("VLLM_LINT_NO_CACHE", "1")
    mp.setenv("NO_COLOR", "1")
    mp.setenv("HF_HOME", str(tmp / "hf-home"))
    mp.delenv("HF_HUB_CACHE", raising=False)
    mp.delenv("HUGGINGFACE_HUB_CACHE", raising=False)
    mp.setenv("XDG_CACHE_HOME", str(tmp / "xdg-cache"))
    mp.setattr(models, "hf_cache_dirs", lambda: [tmp / "hf-home" / "hub"])
    mp.setattr(models, "_cache_dir", lambda: tmp / "xdg-cache" / "vllm-lint" / "hf-configs")
    models.clear_cache()
    try:
        yield
    finally:
        models.clear_cache()


def run_json(root: Path, *args: str) -> list[dict]:
    """``vllm-lint --output-format json ARGS root`` in-process; filenames made relative to root."""
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    r = CliRunner().invoke(main, ["--output-format", "json", *args, str(root)], catch_exceptions=False)
    assert r.exit_code in (0, 1), r.output
    out = json.loads(r.stdout)
    for d in out:
        d["filename"] = Path(d["filename"]).resolve().relative_to(root.resolve()).as_posix()
    return out


def run_cli(*args: str):
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)
