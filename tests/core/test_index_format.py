"""``index.json`` stores each name's runs as version strings (``[first]`` while the newest release
still accepts it, ``[first, removed_in]`` once it is gone), so a new release rewrites only the
entries of the names it adds or drops, and inserting a point release touches nothing that did
not change there."""

from __future__ import annotations

import json
import shutil

import pytest
import synthetic_db

from vllm_lint.surface.db import Database, DatabaseError, compile_index


def _index_lines(db):
    return (db / "index.json").read_text().splitlines()


def _changed_names(before, after):
    """The top-level table entries a line diff between two index files touches."""
    a, b = json.loads("\n".join(before)), json.loads("\n".join(after))
    return {(t, k) for t in a if isinstance(a[t], dict) for k in set(a[t]) | set(b[t]) if a[t].get(k) != b[t].get(k)}


@pytest.fixture
def two_releases(tmp_path):
    """The synthetic database without its newest release (0.27.1), and that release's file."""
    db = synthetic_db.build(tmp_path / "db")
    newest = tmp_path / "0.27.1.json"
    shutil.move(db / "releases" / "0.27.1.json", newest)
    compile_index(db)
    return db, newest


def test_runs_are_version_strings(synth_db_path):
    index = json.loads((synth_db_path / "index.json").read_text())
    assert index["options"]["--model"] == [["0.8.5"]]
    assert index["options"]["--swap-space"] == [["0.8.5", "0.27.1"]]
    assert index["options"]["--cudagraph-capture-sizes"] == [["0.10.0"]]
    db = Database(synth_db_path)
    assert db.option_history("--swap-space").ranges == [("0.8.5", "0.10.0")]
    assert db.option_history("--model").ranges == [("0.8.5", "0.27.1")]


def test_appending_a_release_changes_only_the_names_it_adds_or_drops(two_releases):
    db, newest = two_releases
    before = _index_lines(db)
    shutil.copy(newest, db / "releases" / newest.name)
    compile_index(db)
    after = _index_lines(db)
    changed = _changed_names(before, after)
    assert ("options", "--model") not in changed and ("options", "--cudagraph-capture-sizes") not in changed
    assert ("options", "--swap-space") in changed  # dropped by 0.27.1
    assert ("options", "--optimization-level") in changed  # added by 0.27.1
    surfaces = Database(db)
    strings = [{s for o in surfaces.surface(v).options for s in o.strings} for v in ("0.10.0", "0.27.1")]
    assert {k for t, k in changed if t == "options"} == strings[0] ^ strings[1]


def test_a_run_naming_no_release_is_a_database_error(synth_db_path, tmp_path):
    db = tmp_path / "db"
    shutil.copytree(synth_db_path, db)
    index = json.loads((db / "index.json").read_text())
    index["options"]["--model"] = [["0.9.9"]]
    (db / "index.json").write_text(json.dumps(index))
    with pytest.raises(DatabaseError, match="corrupted database index"):
        Database(db).option_history("--model")
