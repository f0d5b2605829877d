"""The shipped database is consistent: the committed index is what the release files compile to,
every release loads, and the facts the issues name are right."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from vllm_lint.surface.db import Database, compile_index, default_db_path, release_files
from vllm_lint.surface.version import Version

SHIPPED = default_db_path()


def test_committed_index_matches_the_release_files(tmp_path):
    copy = tmp_path / "db"
    shutil.copytree(SHIPPED / "releases", copy / "releases")
    compile_index(copy)
    assert (copy / "index.json").read_bytes() == (SHIPPED / "index.json").read_bytes(), \
        "flag_db/index.json is stale: recompile it with vllm_lint.surface.db.compile_index"


def test_runtime_and_build_reads_outside_envs_py():
    db = Database(SHIPPED)
    # read with os.getenv before it moved into envs.py (0.19.0)
    assert db.surface("0.13.0").env["VLLM_BATCH_INVARIANT"]["outside_envs"]
    # read by setup.py / CMake, per release
    assert "VLLM_PRECOMPILED_WHEEL_LOCATION" in db.surface("0.13.0").build_env
    assert "VLLM_CPU_AVX512BF16" in db.surface("0.9.2").build_env
    assert db.build_env_history("VLLM_CPU_X86") is not None


def test_every_release_loads_and_names_itself():
    db = Database(SHIPPED)
    # the release train appends releases: the floor is what this test knows, not the newest
    assert db.versions[0] == "0.4.0" and Version(db.newest) >= Version("0.34.0") and len(db.versions) >= 80
    assert db.versions == [p.stem for _, p in release_files(SHIPPED)]
    no_envs_py = {"0.4.0", "0.4.0.post1", "0.4.1"}  # vllm/envs.py first ships in 0.4.2
    for v in db.versions:
        s = db.surface(v)
        assert s.version == v and s.options
        from_envs_py = {k for k, e in s.env.items() if not e.get("outside_envs")}
        assert bool(from_envs_py) == (v not in no_envs_py), v
        assert s.env  # every release reads some VLLM_* directly (os.getenv), envs.py or not


@pytest.mark.parametrize("option,last,removed_in", [
    ("--swap-space", "0.17.1", "0.18.0"),
    ("--preemption-mode", "0.10.2", "0.11.0"),
    ("--num-scheduler-steps", "0.10.0", "0.10.1"),
    ("--max-num-partial-prefills", "0.26.0", "0.27.0"),
    ("--max-long-partial-prefills", "0.26.0", "0.27.0"),
    ("--cuda-graph-sizes", "0.12.0", "0.13.0"),
])
def test_named_removals(option, last, removed_in):
    db = Database(SHIPPED)
    h = db.option_history(option)
    assert h.last == last and db.versions[db.position(last) + 1] == removed_in


def test_env_and_renames():
    db = Database(SHIPPED)
    assert db.env_history("VLLM_USE_V1").last == "0.11.0"
    assert db.option_overlay("--cuda-graph-sizes")["successor"] == "--cudagraph-capture-sizes"
    assert db.option_history("--cudagraph-capture-sizes").first == "0.11.1"
    assert db.surface("0.20.0").lookup("--gpu-memory-utilization").default == 0.92
    assert db.surface("0.19.1").lookup("--gpu-memory-utilization").default == 0.9


def test_overlay_entries_name_real_options_with_evidence():
    db = Database(SHIPPED)
    ov = json.loads((SHIPPED / "overlays" / "renames.json").read_text())
    for name, entry in ov["options"].items():
        assert db.option_history(name) is not None, name
        assert entry.get("evidence"), name
        succ = entry.get("successor")
        if succ:
            assert db.option_history(succ.partition(".")[0]) is not None, succ
    for name, entry in ov["env"].items():
        assert db.env_history(name) is not None and entry.get("evidence"), name


def test_a_source_checkout_finds_its_database_or_says_what_to_do(monkeypatch, tmp_path):
    """Run from a checkout on sys.path (not installed), ``vllm_lint.flag_db`` does not import: the
    database at the repository root is used, and without one the error says what to do (it was
    a traceback)."""
    import importlib.util

    from vllm_lint.surface import db as D

    monkeypatch.delenv("VLLM_LINT_DB", raising=False)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "vllm_lint.flag_db" else real(name, *a))
    assert (default_db_path() / "index.json").is_file()
    monkeypatch.setattr(D, "_checkout_db", lambda: tmp_path / "flag_db")
    with pytest.raises(D.DatabaseError, match="VLLM_LINT_DB"):
        default_db_path()


def test_histories_of_respelled_options_are_true():
    """What `flags show` and the site say a spelling was, release by release, checked with the
    real parsers (tools/crosscheck/run.py's owners column; 0.27.0 and 0.34.0 take `-O3` and
    `--disable-log-requests`, refuse a bare `-O`; 0.27.0 refuses `--disable-log-requests`)."""
    from vllm_lint.surface.timeline import story
    from vllm_lint.surface.wording import history_lines

    db = Database(SHIPPED)
    o = story(db, "-O")
    assert o.ranges == [("0.6.5", db.newest)] and o.removed_in == []
    assert o.roles[0] == ("0.6.5", "0.11.2", "alias of --compilation-config")
    assert o.roles[1] == ("0.12.0", db.newest, "rewritten to --optimization-level")
    d = story(db, "--disable-log-requests")
    assert d.removed_in == ["0.17.0"] and d.returned_in == ["0.33.0"]
    assert d.roles[-1] == ("0.33.0", db.newest, "negation of --enable-log-requests")
    text = dict(history_lines(d, db.newest))
    assert "accepted again from 0.33.0" in text["removed in"] and "negation of" in text["what it is"]


def test_a_story_told_from_tables_held_is_the_story_told_from_the_surfaces():
    """``site`` reads every release's ``by_string`` once and hands the tables to ``story``
    (``held``): every string of the shipped database (and ``-O``, which parse_args rewrites, and a
    string with underscores, whose query names its dashed form) gets the same story both ways."""
    from vllm_lint.surface.timeline import story

    db = Database(SHIPPED)
    held: dict = {}
    for i, v in enumerate(db.versions):
        for string, opt in db.surface(v).by_string.items():
            held.setdefault(string, {})[i] = opt
    for name in [*sorted(held), "-O", "--preemption_mode", "--no-such-option"]:
        told, asked = story(db, name, held), story(db, name)
        assert (told.to_json() if told else None) == (asked.to_json() if asked else None), name
