"""Forks of vLLM and the variables they read that no release does (``vllm_lint/data/forks.tsv``,
one source per row: the fork's environment module at a commit, written by ``tools/fork_env.py``).

A fork replaces vLLM in the image that runs it (a community build for one GPU family, a vendor's
branch): its own ``VLLM_*`` switches are read there, so they are not "unknown" where the launch may
run the fork. The table is read once, on the first name no release reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

_BY_NAME: Optional[dict[str, tuple[str, ...]]] = None


def _table_path() -> Path:
    return Path(__file__).resolve().parent.parent / "data" / "forks.tsv"


def _load() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    header = True
    for line in _table_path().read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if header:  # the column names
            header = False
            continue
        name, fork = cells[0].strip(), cells[1].strip()
        if fork not in out.setdefault(name, []):
            out[name].append(fork)
    return {name: tuple(forks) for name, forks in out.items()}


def fork_readers(name: str) -> tuple[str, ...]:
    """The forks (``owner/name`` on GitHub) that read the variable ``name``; empty when none known."""
    global _BY_NAME
    if _BY_NAME is None:
        _BY_NAME = _load()
    return _BY_NAME.get(name, ())
