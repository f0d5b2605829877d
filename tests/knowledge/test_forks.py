"""The table of forks' variables (vllm_lint/data/forks.tsv): every row sourced at a commit, and no
row for a name a vLLM release already reads (that name is never unknown, the row would be dead)."""

from __future__ import annotations

import re

from vllm_lint.knowledge import forks
from vllm_lint.surface.db import Database, shipped_db_path

_SOURCE = re.compile(r"^https://github\.com/[\w.-]+/[\w.-]+/blob/[0-9a-f]{40}/\S+\.py\b")


def _rows() -> list[list[str]]:
    lines = [ln for ln in forks._table_path().read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert lines[0].split("\t") == ["variable", "fork", "source"]
    return [ln.split("\t") for ln in lines[1:]]


def test_every_row_is_a_vllm_variable_of_a_named_fork_with_a_source_at_a_commit():
    rows = _rows()
    assert rows
    for name, fork, source in rows:
        assert name.startswith("VLLM_"), name
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", fork), fork
        assert _SOURCE.match(source) and f"github.com/{fork}/" in source, source


def test_no_row_names_a_variable_a_release_reads():
    known = set(Database(shipped_db_path()).all_env_names)
    assert [name for name, _fork, _src in _rows() if name in known] == []


def test_readers_of_a_fork_variable_and_of_an_unknown_name():
    assert forks.fork_readers("VLLM_USE_B12X_MOE") == ("local-inference-lab/vllm",)
    assert forks.fork_readers("VLLM_NOT_READ_ANYWHERE") == ()
