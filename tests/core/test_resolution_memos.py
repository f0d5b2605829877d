"""The per-directory and per-surface memos of the lint path give what the direct computations give:
real directories (symbolic links, ``..``, relative paths), project pins, model resolution from a
file's directory, and option resolution."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from vllm_lint.argv import ArgvParser


@pytest.fixture
def tree(tmp_path):
    """real/sub (pinned in real/), a link to it, a file link from another pinned directory, a
    directory link in the middle of a path."""
    (tmp_path / ".git").mkdir()
    sub = tmp_path / "real" / "sub"
    sub.mkdir(parents=True)
    (tmp_path / "real" / "requirements.txt").write_text("vllm==0.10.2\n")
    (sub / "serve.sh").write_text("vllm serve m\n")
    (tmp_path / "linkdir").symlink_to("real/sub")
    other = tmp_path / "other"
    other.mkdir()
    (other / "requirements.txt").write_text("vllm==0.8.5\n")
    (other / "serve_link.sh").symlink_to("../real/sub/serve.sh")
    (tmp_path / "deep" / "x").mkdir(parents=True)
    (tmp_path / "deep" / "x" / "up").symlink_to("../../real")
    (tmp_path / "dangling").symlink_to("nowhere")
    return tmp_path


def _paths(root: Path) -> list[str]:
    return [f"{root}/real/sub/serve.sh", f"{root}/linkdir/serve.sh", f"{root}/other/serve_link.sh",
            f"{root}/real/sub/../sub/serve.sh", f"{root}/deep/x/up/sub/serve.sh",
            f"{root}/deep/x/up/../other/serve_link.sh", f"{root}/dangling/x.sh", f"{root}/missing/dir/x.sh",
            "serve.sh", "sub/serve.sh", "../linkdir/serve.sh", "./sub/../sub/serve.sh"]


def _linter(synth_db):
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.settings import Settings

    return Linter(synth_db, Settings(), [])


def test_real_parent_is_the_resolved_parent(synth_db, tree, monkeypatch):
    monkeypatch.chdir(tree / "real")
    linter = _linter(synth_db)
    for p in _paths(tree) * 2:  # twice: from the memo as well
        assert linter.targeting.real_parent(Path(p)) == str(Path(p).parent.resolve()), p


def test_base_dir_is_the_real_files_directory(tree, monkeypatch):
    from vllm_lint.knowledge import layout

    monkeypatch.chdir(tree / "real")
    monkeypatch.setattr(layout, "_BASE_DIRS", {})
    monkeypatch.setattr(layout, "_REAL_DIRS", {})
    for p in _paths(tree) * 2:
        assert layout._base_dir(p) == Path(os.path.dirname(os.path.realpath(p))), p


def test_project_pin_is_read_from_the_real_directory(synth_db, tree):
    linter = _linter(synth_db)
    for p, pin in (("real/sub/serve.sh", "0.10.2"), ("linkdir/serve.sh", "0.10.2"), ("deep/x/up/sub/serve.sh", "0.10.2"),
                   ("other/serve_link.sh", "0.8.5")):  # a linked file: its own directory, as before
        target, why = linter.targeting.target_for(tree / p, [])
        # (a pin of a release the database lacks says which it took: README "Which release is checked")
        assert target == synth_db.floor_version(pin) and why.startswith(f"requirements.txt pins vllm=={pin}"), p


def test_a_models_directory_next_to_one_file_does_not_leak_to_others(tmp_path):
    from vllm_lint.knowledge import models

    models.clear_cache()
    a, b = tmp_path / "a", tmp_path / "b"
    (a / "deepseek-ai" / "DeepSeek-V3").mkdir(parents=True)
    (a / "deepseek-ai" / "DeepSeek-V3" / "config.json").write_text(json.dumps({"num_attention_heads": 12}))
    b.mkdir()
    try:
        for _ in range(2):
            in_b, _why = models.resolve("deepseek-ai/DeepSeek-V3", base_dir=b)
            in_a, why = models.resolve("deepseek-ai/DeepSeek-V3", base_dir=a)
            assert in_b is not None and in_b.heads == 128 and in_b.source.startswith("vllm_lint/data/models.tsv")
            assert in_a is not None and in_a.heads == 12 and why == f"config.json at {a}/deepseek-ai/DeepSeek-V3/config.json"
    finally:
        models.clear_cache()


def test_option_resolution_memo(synth_db):
    s = synth_db.surface("0.27.1")
    first = [ArgvParser(s, synth_db).resolve(w) for w in ("--tensor_parallel_size", "--max-num", "--enf", "-tp")]
    again = [ArgvParser(s, synth_db).resolve(w) for w in ("--tensor_parallel_size", "--max-num", "--enf", "-tp")]
    assert first == again
    fresh = ArgvParser(synth_db.surface("0.27.1"), synth_db)
    fresh.surface = type(s)(s.record)  # a surface without memo
    assert [fresh.resolve(w) for w in ("--tensor_parallel_size", "--max-num", "--enf", "-tp")] == first
    for a, b in zip(first, again):
        assert a[5] is not b[5]  # each caller gets its own list of candidates


def test_close_match_is_difflibs(synth_db):
    import difflib

    from vllm_lint.rules import _status

    pools = [synth_db.surface(v).long_strings for v in synth_db.versions] + [
        ["--abc", "--abd", "--abe"], ["--ab", "--ba"], [], ["x", "x", "y"]]
    words = ["--max-model-length", "--tensor-paralel-size", "--ab", "--abx", "--enforce_eager", "x", "--zzz", ""]
    for cutoff in (0.0, 0.6, 0.75, 0.8, 1.0):
        for word in words:
            for pool in pools * 2:  # the second time from the per-process ratios
                want = difflib.get_close_matches(word, pool, n=1, cutoff=cutoff)
                assert _status.close_match(word, pool, cutoff) == (want[0] if want else None), (word, cutoff)


def test_option_strings_starting(synth_db):
    for prefix in ("", "-", "--", "--max", "--max-num-seqs", "--no", "--zzz", "-t", "--tensor-parallel-size-x"):
        assert synth_db.option_strings_starting(prefix) == sorted(
            s for s in synth_db.all_option_strings if s.startswith(prefix)), prefix


def test_option_from_record_sets_every_field(synth_db):
    from vllm_lint.surface.db import Option

    n = 0
    for v in synth_db.versions:
        for r in synth_db.surface(v).record["options"]:
            want = Option(name=r["name"], aliases=list(r.get("aliases") or []), negations=list(r.get("negations") or []),
                          hidden=list(r.get("hidden") or []), dest=r.get("dest") or r["name"].lstrip("-").replace("-", "_"),
                          kind=r.get("kind") or "valued", type=r.get("type"), optional=bool(r.get("optional")),
                          nargs=r.get("nargs"), choices=r.get("choices"), default=r.get("default"),
                          default_computed=bool(r.get("default_computed")), group=r.get("group"), config=r.get("config"),
                          deprecated=r.get("deprecated"), deprecated_values=r.get("deprecated_values"),
                          choices_platform=bool(r.get("choices_platform")),
                          class_at_start=bool(r.get("class_at_start")))
            got = Option.from_record(r)
            assert got == want and repr(got) == repr(want)
            n += 1
    assert n > 50


@pytest.mark.parametrize("enabled", [True, False])
def test_database_loading_restores_the_garbage_collector(synth_db_path, tmp_path, enabled):
    import gc
    import shutil

    from vllm_lint.surface.db import Database, DatabaseError

    bad = tmp_path / "db"
    shutil.copytree(synth_db_path, bad)
    first = sorted((bad / "releases").glob("*.json"))[0]
    first.write_text("{not json")
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        db = Database(synth_db_path)
        for v in db.versions:
            db.surface(v)
        assert gc.isenabled() is enabled
        with pytest.raises(DatabaseError):
            Database(bad).surface(first.stem)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_a_model_path_the_file_system_cannot_hold_is_an_unknown_model(run_cli, tmp_path):
    """A path component over the file system's limit (ENAMETOOLONG) is no local model directory:
    the rules skip the model, no internal error."""
    from vllm_lint.knowledge import models

    models.clear_cache()
    f = tmp_path / "run.sh"
    f.write_text(f"vllm serve {'a' * 300} --tensor-parallel-size 3 --kv-cache-dtype fp8\n")
    r = run_cli("-t", "0.27.1", "--output-format", "json", str(f))
    assert "VL001" not in r.output and "internal error" not in r.output
    assert models.resolve("a" * 300, base_dir=tmp_path)[0] is None


def test_a_release_as_written_is_resolved_without_parsing_every_release():
    """The shipped (certified) database resolves a tag that is one of its releases as written
    (``v0.10.2``, ``0.27.1``) without parsing its version list (issue 31, tenth pass): its versions
    are ``compile_index``'s, one per version and in order, so the answer is the loop's over all."""
    from vllm_lint.surface.db import Database, UnknownVersion
    from vllm_lint.surface.version import Version

    db = Database()
    parsed = [Version(v) for v in db.versions]
    assert all(a < b for a, b in zip(parsed, parsed[1:]))  # (what the shortcut rests on)
    probe = Database()
    for v in db.versions[::7] + [db.versions[-1]]:
        for spec in (v, "v" + v, " " + v):
            got = probe.floor_version(spec)
            assert "_parsed" not in probe.__dict__, spec
            want = next((w for w, pv in zip(db.versions, parsed) if pv == Version(spec.strip().lstrip("v"))), None)
            assert got == want == v, spec
    for spec in ("0.10", "0.8.6", "v0.10.2.0", "0.10.02", "99.0.0"):  # (series, missing, spelled otherwise: the loop)
        try:
            fresh, loaded = Database().floor_version(spec), probe.floor_version(spec)
        except UnknownVersion:
            continue
        assert fresh == loaded
    assert Database().floor_version("v0.10.2.0") == "0.10.2"
