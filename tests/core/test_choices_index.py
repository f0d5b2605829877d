"""The index lists each option's choices per release (``option_choices``), so the release window of
a launch that names no release (``targeting.accepted_range``) checks its values without loading
release files; the table says what every release's own surface says."""

from __future__ import annotations

import json
import shutil

from vllm_lint.argv import ParsedArg
from vllm_lint.pipeline.targeting import accepted_range
from vllm_lint.surface.db import Database, default_db_path


def test_the_index_choices_are_each_releases_lookup():
    db = Database(default_db_path())
    checked = 0
    for i, version in enumerate(db.versions):
        surface = db.surface(version)
        for string, option in surface.by_string.items():
            from_index = [choices for choices, indices in db.option_choices(string) if i in indices]
            # (choices the platform adds to are not listed: a value outside them is not known refused)
            want = [frozenset(str(c) for c in option.choices)] if option.choices and not option.choices_platform else []
            assert from_index == want, (version, string)
            checked += bool(want)
        for string in db.index["option_choices"]:
            if string not in surface.by_string:
                assert not any(i in indices for _, indices in db.option_choices(string)), (version, string)
    assert checked > 1000


def _arg(string: str, value: str) -> ParsedArg:
    return ParsedArg(string, string, value=value)


LAUNCHES = [  # (options with values, env): values in and out of some releases' choices
    [("--kv-cache-dtype", "fp8_e5m2"), ("--tensor-parallel-size", "2")],
    [("--kv-cache-dtype", "fp8_inc")],
    [("--dtype", "bfloat16"), ("--load-format", "runai_streamer")],
    [("--load-format", "sharded_state"), ("--swap-space", "4")],
    [("--tokenizer-mode", "mistral"), ("--guided-decoding-backend", "xgrammar")],
    [("--all2all-backend", "mori"), ("--enable-expert-parallel", "1")],
    [("--all2all-backend", "nope")],
    [("--device", "neuron"), ("--block-size", "32")],
    [("--distributed-executor-backend", "external_launcher")],
    [("--reasoning-parser", "deepseek_r1"), ("--max-model-len", "8192")],
]


def test_accepted_range_is_the_same_from_the_index_and_from_the_release_files(tmp_path, monkeypatch):
    shipped = default_db_path()
    db = Database(shipped)
    loaded: list[str] = []
    real_surface = Database.surface
    monkeypatch.setattr(Database, "surface", lambda self, v: loaded.append(v) or real_surface(self, v))
    from_index = [accepted_range(db, [_arg(s, v) for s, v in launch], []) for launch in LAUNCHES]
    assert loaded == []  # no release file read
    assert any(r is not None for r in from_index)

    old = tmp_path / "db"  # an index compiled before the table: the releases' own surfaces decide
    shutil.copytree(shipped, old, ignore=shutil.ignore_patterns("__pycache__"))
    index = json.loads((old / "index.json").read_text())
    del index["option_choices"]
    (old / "index.json").write_text(json.dumps(index))
    old_db = Database(old)
    assert not old_db.indexes_choices
    assert [accepted_range(old_db, [_arg(s, v) for s, v in launch], []) for launch in LAUNCHES] == from_index
    assert loaded
