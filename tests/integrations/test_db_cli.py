"""``vllm-lint db update`` / ``db build`` say what they will do before they start, a new database
needs --yes, progress is one line per event, and the archive cache is shown, bounded and prunable
(issue 18 defect 14). Offline: the source is a stand-in for PyPI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner


class FakeSource:
    def __init__(self, cache: Path):
        self.cache_dir = cache
        self.notes: list[str] = []

    def versions(self):
        return ["0.8.5", "0.10.0", "0.27.1"]

    def file_for(self, version):
        return {"filename": f"vllm-{version}.tar.gz", "size": 30_000_000}


@pytest.fixture
def fake(tmp_path, monkeypatch):
    from vllm_lint.cli import db_command as cli_db
    from vllm_lint.scrape import build as b

    src = FakeSource(tmp_path / "cache")
    built: list = []

    class Result:
        releases, failed, ok, index, seconds = [], [], True, "compiled", 0.1

    def fake_build(source, versions, db_dir, progress=None, jobs=None, resolved=None, **kw):
        built.append(list(resolved))
        return Result()

    monkeypatch.setattr(cli_db, "_make_source", lambda kind, repo, index_url=None: src)
    monkeypatch.setattr(b, "build", fake_build)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return src, built


def run(*args):
    from vllm_lint.cli.app import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_update_into_a_new_folder_says_what_it_would_do_and_asks(fake, tmp_path):
    src, built = fake
    r = run("db", "update", "--db-dir", str(tmp_path / "new"))
    assert r.exit_code == 2 and built == []
    assert "3 release(s) of vLLM (0.8.5 to 0.27.1) from pypi into a new database" in r.stderr
    assert "about 90 MB to download" in r.stderr and "--yes" in r.stderr
    r = run("db", "update", "--db-dir", str(tmp_path / "new"), "--yes")
    assert r.exit_code == 0 and built == [["0.8.5", "0.10.0", "0.27.1"]]


def test_update_of_an_existing_database_names_the_releases(fake, tmp_path):
    src, built = fake
    db = tmp_path / "db"
    (db / "releases").mkdir(parents=True)
    (db / "releases" / "0.10.0.json").write_text("{}")
    r = run("db", "update", "--db-dir", str(db))
    assert r.exit_code == 0 and built == [["0.27.1"]]
    assert "1 release(s) of vLLM (0.27.1) from pypi into the database (1 releases, newest 0.10.0)" in r.stderr


def test_archive_cache_is_shown_bounded_and_prunable(tmp_path, monkeypatch):
    from vllm_lint.cli.db_command import prune_archives

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    from vllm_lint.scrape.sources import default_cache_dir

    folder = default_cache_dir() / "archives"
    folder.mkdir(parents=True)
    for i in range(3):
        p = folder / f"vllm-0.{i}.0.tar.gz"
        p.write_bytes(b"x" * 1000)
        os.utime(p, (1000 + i, 1000 + i))
    r = run("db", "cache")
    assert r.exit_code == 0 and "3 archive(s)" in r.stdout and str(folder) in r.stdout
    assert prune_archives(folder, 2000) == 1 and not (folder / "vllm-0.0.0.tar.gz").exists()  # the oldest use goes
    r = run("db", "cache", "--prune")
    assert r.exit_code == 0 and "removed 2 archive(s)" in r.stdout and not list(folder.iterdir())
