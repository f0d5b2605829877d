"""When a launch names no release anywhere (no -t, no image tag, no pin), it is checked against
the newest release of the database; the run says so once, since its findings change when the
database grows (issue 15). Text formats put it in the summary; machine formats keep their shape
and the note goes to standard error."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from vllm_lint.cli.app import main
from vllm_lint.surface.db import Database, default_db_path

NOTE = "named no vLLM release: checked against the newest in the database"


@pytest.fixture
def run(monkeypatch, tmp_path):
    monkeypatch.setenv("VLLM_LINT_DB", str(default_db_path()))
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))

    def invoke(*args):
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return invoke


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a.sh").write_text("vllm serve m --max-model-len 4096\n")
    (tmp_path / "b.sh").write_text("vllm serve m --port 8000\n")
    # (in a folder of its own: a Dockerfile beside a script names the script's release too)
    (tmp_path / "image").mkdir()
    (tmp_path / "image" / "Dockerfile").write_text('FROM vllm/vllm-openai:v0.10.2\nCMD ["--model", "m"]\n')
    return tmp_path


def test_the_text_summary_says_it_once(run, files):
    res = run(str(files / "a.sh"), str(files / "b.sh"), str(files / "image" / "Dockerfile"))
    assert res.output.count(NOTE) == 1
    assert f"2 files {NOTE}, {Database(default_db_path()).newest}" in res.output


def test_machine_formats_keep_their_shape(run, files):
    res = run("--output-format", "json", str(files / "a.sh"))
    assert json.loads(res.stdout) == []
    assert NOTE in res.stderr


def test_silent_when_a_release_is_named(run, files):
    assert NOTE not in run(str(files / "image" / "Dockerfile")).output
    assert NOTE not in run("-t", "0.10", str(files / "a.sh")).output


def test_a_cached_result_still_says_it(run, files):
    first = run(str(files / "a.sh"))
    again = run(str(files / "a.sh"))
    assert NOTE in first.output and NOTE in again.output
