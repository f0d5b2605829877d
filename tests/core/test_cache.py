"""The result cache: hits on unchanged files, misses on any change of content or settings,
never stale across database changes, safe to corrupt, one file written per run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest


def _lint(run_cli, monkeypatch, tmp_path, *args):
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    r = run_cli("--output-format", "json", *args)
    return [(d["code"], d["location"]["row"]) for d in json.loads(r.stdout)]


def _full(run_cli, monkeypatch, tmp_path, *args):
    """Every field of every finding, in output order."""
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    return json.loads(run_cli("--output-format", "json", *args).stdout)


def _files(tmp_path):
    root = tmp_path / "cache"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def _body(p):
    """An index file's records (the JSON after its MAC line), without its table of surveys."""
    index = json.loads(p.read_bytes().partition(b"\n")[2])
    index.pop("\0surveys", None)
    return index


def _index(tmp_path):
    (p,) = (tmp_path / "cache").glob("v3/stat-*.json")
    return _body(p)


def _touch(p, step=7):
    """Change only the mtime."""
    st = p.stat()
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + step * 1_000_000_000))


@pytest.fixture
def linted(monkeypatch):
    """The paths Linter.analyse parses, in this process."""
    from vllm_lint.pipeline.engine import Linter

    seen: list[str] = []
    real = Linter.analyse

    def spy(self, path, *a, **k):
        seen.append(str(path))
        return real(self, path, *a, **k)

    monkeypatch.setattr(Linter, "analyse", spy)
    return seen


def test_one_index_file_and_no_per_entry_files(run_cli, monkeypatch, tmp_path):
    for i in range(5):
        (tmp_path / f"a{i}.sh").write_text(f"vllm serve m --swap-space {i} --dtype fp16\n")
    (tmp_path / "b.sh").write_text("echo hello\n")
    src = tmp_path / "src"
    src.mkdir()
    for p in tmp_path.glob("*.sh"):
        p.rename(src / p.name)
    first = _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(src))
    files = _files(tmp_path)
    assert files[:2] == [".gitignore", "CACHEDIR.TAG"] and len(files) == 3
    assert files[2].startswith("v3/stat-") and files[2].endswith(".json")
    index = _index(tmp_path)
    assert len(index) == 6
    # files with launches carry their content key; the file without one does not
    assert sorted(len(r) for r in index.values()) == [3, 8, 8, 8, 8, 8]  # (and the survey of their pin)
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(src)) == first
    assert _files(tmp_path) == files


def test_content_hit_after_touch_reuses_findings_without_linting(run_cli, monkeypatch, tmp_path, linted):
    p = tmp_path / "a.sh"
    # a finding with a fix, one without, a suppressed one, and an unused suppression (VL003)
    p.write_text("# a comment\nvllm serve m --swap-space 4 \\\n  --dtype fp16 \\\n"
                 "  --cuda-graph-sizes 8 \\\n  --port 1  # vllm-lint: ignore[VL101]\n")
    first = _full(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", "--extend-select", "VL003", str(p))
    assert first and linted == [str(p)]
    linted.clear()
    _touch(p)
    again = _full(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", "--extend-select", "VL003", str(p))
    assert again == first and linted == []
    # the content hit refreshed the record's mtime: the next run is a stat hit
    assert _index(tmp_path)[str(p)][1] == p.stat().st_mtime_ns
    assert _full(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", "--extend-select", "VL003", str(p)) == first
    assert linted == []
    # and a fresh run agrees
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")
    assert json.loads(run_cli("--output-format", "json", "-t", "0.27.1", "--extend-select", "VL003",
                              str(p)).output) == first


def test_content_change_invalidates(run_cli, monkeypatch, tmp_path, linted):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4\n")
    st = p.stat()
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == [("VL101", 1)]
    # same size, same mtime as recorded is a stat hit by design; same size, new mtime and new bytes
    # must be linted again
    p.write_text("vllm serve m --port 4444444\n")
    assert p.stat().st_size == st.st_size
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 3_000_000_000))
    linted.clear()
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == []
    assert linted == [str(p)]


def test_settings_change_invalidates(run_cli, monkeypatch, tmp_path, linted):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4 --dtype fp16\n")
    both = _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p))
    assert {c for c, _ in both} >= {"VL101", "VL105"}
    _touch(p)
    linted.clear()
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", "--select", "VL105", str(p)) == [("VL105", 1)]
    assert linted == [str(p)]
    # a different target is a different fingerprint, with its own index
    linted.clear()
    other = _lint(run_cli, monkeypatch, tmp_path, "-t", "0.10.0", str(p))
    assert other != both and linted == [str(p)]
    assert len(list((tmp_path / "cache").glob("v3/stat-*.json"))) == 3
    # each index answers its own settings
    linted.clear()
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == both and linted == []


def test_corrupt_index_is_a_miss(run_cli, monkeypatch, tmp_path, linted):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4\n")
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == [("VL101", 1)]
    (index,) = (tmp_path / "cache").glob("v3/stat-*.json")
    for junk in ("{corrupt", "[1, 2]", "[" * 100000, '{"%s": "x"}' % p, '{"%s": [1, 2, 3, [{"a": 1}], 4, 5]}' % p):
        index.write_text(junk)
        linted.clear()
        assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == [("VL101", 1)]
        assert linted == [str(p)]
        assert len(_index(tmp_path)[str(p)]) == 8  # rewritten whole
    # a record whose findings do not load, under the right size and mtime, is relinted and replaced
    rec = _index(tmp_path)[str(p)]
    rec[3] = [{"code": "VL101"}]
    index.write_text(json.dumps({str(p): rec}))
    linted.clear()
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == [("VL101", 1)]
    assert linted == [str(p)] and "message" in _index(tmp_path)[str(p)][3][0]


def test_old_format_directory_is_ignored(run_cli, monkeypatch, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4\n")
    old = tmp_path / "cache" / "v1" / "ab"
    old.mkdir(parents=True)
    (old / ("ab" * 32 + ".json")).write_text("[]")
    (old.parent / "stat-x.json").write_text("{corrupt")
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == [("VL101", 1)]


def test_unchanged_run_writes_nothing(run_cli, monkeypatch, tmp_path):
    # (a repository: outside one, the release choices read the folders up to / for pins, and a
    # shared /tmp changes between two runs)
    (tmp_path / ".git").mkdir()
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4\n")
    (tmp_path / "b.sh").write_text("echo hi\n")
    first = _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(tmp_path))
    (index,) = (tmp_path / "cache").glob("v3/stat-*.json")
    before = index.stat()
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(tmp_path)) == first
    after = index.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_one_record_per_path(run_cli, monkeypatch, tmp_path):
    p = tmp_path / "a.sh"
    for i in range(6):
        p.write_text(f"vllm serve m --swap-space {i}\n")
        _touch(p, i + 1)
        assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == [("VL101", 1)]
    assert list(_index(tmp_path)) == [str(p)]


def test_fix_mode_ignores_cached_fixable_findings(run_cli, monkeypatch, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --cuda-graph-sizes 8\n")
    _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p))
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    run_cli("-t", "0.27.1", "--fix", str(p))
    assert p.read_text() == "vllm serve m --cudagraph-capture-sizes 8\n"


def test_fix_mode_with_cache_does_what_a_fresh_fix_run_does(run_cli, monkeypatch, tmp_path):
    """A cached result is reused by --fix only when the findings before suppression had no fix (the
    cache does not know which suppressed findings a fresh run would have fixed): the outcome is a
    fresh --fix run's, where a suppressed finding keeps its text."""
    texts = ["vllm serve m --cuda-graph-sizes 8  # vllm-lint: ignore[VL102]\n",
             "vllm serve m --dtype fp16\n"]
    outcomes = []
    for cached in (True, False):
        d = tmp_path / ("cached" if cached else "fresh")
        d.mkdir()
        paths = [d / f"f{i}.sh" for i in range(len(texts))]
        for p, t in zip(paths, texts):
            p.write_text(t)
        if cached:
            _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(d))
            monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
        else:
            monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")
        r = run_cli("-t", "0.27.1", "--fix", "--output-format", "json", str(d))
        outcomes.append(([p.read_text() for p in paths],
                         [(x["code"], x["location"]["row"]) for x in json.loads(r.stdout)]))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0][0] == texts[0]  # suppressed: not rewritten


def test_config_files_setting_is_cached(run_cli, monkeypatch, tmp_path, linted):
    (tmp_path / ".vllm-lint.toml").write_text('config-files = ["serving/*.yaml"]\ntarget-version = "0.27.1"\n')
    (tmp_path / "serving").mkdir()
    p = tmp_path / "serving" / "llama.yaml"
    p.write_text("swap-space: 4\n")
    assert _lint(run_cli, monkeypatch, tmp_path, str(tmp_path)) == [("VL101", 1)]
    _touch(p)
    linted.clear()
    assert _lint(run_cli, monkeypatch, tmp_path, str(tmp_path)) == [("VL101", 1)] and linted == []
    p.write_text("swap-space: 4\nport: 1\n")
    assert _lint(run_cli, monkeypatch, tmp_path, str(tmp_path)) == [("VL101", 1)] and linted == [str(p)]


_FLUSHER = r"""
import json, sys, time
from pathlib import Path
from vllm_lint.pipeline.cache import Cache

root, who, records = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
index = root / "v3" / ("stat-" + "f" * 24 + ".json")


def check():
    # what any run may read at any moment: a whole index
    try:
        text = index.read_bytes()
    except FileNotFoundError:
        return
    if not isinstance(json.loads(text.partition(b"\n")[2]), dict):
        sys.exit(3)


# a start barrier: every process says it is ready, then waits for the test's go
(root / f"ready-{who}").write_text("")
while not (root / "go").exists():
    time.sleep(0.001)
if who == "reader":
    while not (root / "done").exists():
        check()
    sys.exit(0)
for round in range(40):
    c = Cache(root, "f" * 64)
    c.stat_result("nothing", (0, 0))  # reads the index as a run does
    for i in range(records):
        path = f"{who}/{'x' * 100}/{i}.sh"
        c.note_key(path, ("%032x" % (round * 1000 + i), 0))
        c.note_result(path, (i, round), "clean|None", [])
    c.flush()
    check()
"""


def test_concurrent_flushes_leave_a_valid_index(tmp_path):
    # 40 flushes by each writer while a reader reads the index in a loop; what races is the
    # replace of the index against the other writer's and the reader's, so a few hundred records
    # per flush give as many races as thousands, at a fraction of the cost
    records = 250
    procs = {who: subprocess.Popen([sys.executable, "-c", _FLUSHER, str(tmp_path), who, str(records)])
             for who in ("reader", "a", "b")}
    try:
        while not all((tmp_path / f"ready-{who}").exists() or p.poll() is not None for who, p in procs.items()):
            time.sleep(0.005)
        (tmp_path / "go").write_text("")
        assert [procs[w].wait(timeout=120) for w in "ab"] == [0, 0]
        (tmp_path / "done").write_text("")
        assert procs["reader"].wait(timeout=120) == 0
    finally:
        for p in procs.values():
            p.kill()
            p.wait()
    files = sorted(p.name for p in (tmp_path / "v3").iterdir())
    assert files == ["stat-" + "f" * 24 + ".json"]  # no temporary file left behind
    index = _body(tmp_path / "v3" / files[0])
    assert isinstance(index, dict)
    for path, rec in index.items():
        assert path[0] in "ab" and len(rec) == 6 and rec[2] == "clean|None" and rec[3] == []
    # the last writer's records are all there, from its last round
    assert any(all(index.get(f"{who}/{'x' * 100}/{i}.sh", [None, None])[1] == 39 for i in range(records))
               for who in "ab")
    from vllm_lint.pipeline.cache import Cache

    c = Cache(tmp_path, "f" * 64)
    path = f"a/{'x' * 100}/0.sh"
    rec = index[path]
    assert c.stat_result(path, (rec[0], rec[1])) == ("clean|None", [], (), None)
    assert c.content_result(path, rec[4], False) == ("clean|None", [], 0, ())


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked")
def test_parallel_run_keeps_what_workers_linted(run_cli, monkeypatch, tmp_path, linted, workers_only):
    from vllm_lint.pipeline import parallel

    src = tmp_path / "src"
    src.mkdir()
    flags = ["--swap-space 4", "--dtype fp16", "--port 1", "--cuda-graph-sizes 8"]
    for i in range(72):
        (src / f"s{i}.sh").write_text(f"#!/bin/sh\nvllm serve m{i} {flags[i % 4]}\n")
    for i in range(8):
        (src / f"p{i}.sh").write_text("echo hello\n")
    assert parallel.PARALLEL_MIN_FILES <= 80
    monkeypatch.setattr(parallel, "TASKS_PER_PROCESS", 3)
    first = _full(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(src))
    assert workers_only and first
    assert linted == []  # all linted by the worker process
    index = _index(tmp_path)
    launches = [str(src / f"s{i}.sh") for i in range(72)]
    assert all(len(index[p]) == 8 for p in launches)  # with their content keys and survey
    # unchanged: every file answered by its stat record before any worker is forked
    assert _full(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(src)) == first
    assert len(workers_only) == 1
    # every file touched: all answered by content (here in this process), with the same findings
    for p in src.iterdir():
        _touch(p)
    assert _full(run_cli, monkeypatch, tmp_path, "-j", "1", "-t", "0.27.1", str(src)) == first
    assert linted == []


def test_a_yaml_file_named_explicitly_is_not_answered_by_a_directory_walks_record(run_cli, monkeypatch, tmp_path):
    """A directory walk pre-filters YAML (no `vllm` in it: no launch); named explicitly, the same file
    is read as a vLLM config. Neither reading may answer for the other from the cache."""
    d = tmp_path / "d"
    d.mkdir()
    cfg = d / "cfg.yaml"
    cfg.write_text("model: m\nswap-space: 4\n")
    explicit = _lint(run_cli, monkeypatch, tmp_path, "--no-cache", "-t", "0.27.1", str(cfg))
    assert explicit and explicit[0][0] == "VL101"
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(d)) == []
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(cfg)) == explicit
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(d)) == []  # and back
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(cfg)) == explicit


def test_a_shell_file_is_answered_whichever_way_it_was_named(run_cli, monkeypatch, tmp_path, linted):
    """Shell, Python, Dockerfile and Markdown files are pre-filtered either way: one record serves both."""
    d = tmp_path / "d"
    d.mkdir()
    sh = d / "run.sh"
    sh.write_text("vllm serve m --swap-space 4\n")
    first = _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(d))
    assert first and linted == [str(sh)]
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(sh)) == first
    assert linted == [str(sh)]  # answered by the walk's record


def test_index_files_of_other_settings_unused_for_a_month_are_pruned(run_cli, monkeypatch, tmp_path):
    from vllm_lint.pipeline.cache import PRUNE_DAYS

    f = tmp_path / "run.sh"
    f.write_text("vllm serve m --swap-space 4\n")
    _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(f))
    (current,) = (tmp_path / "cache").glob("v3/stat-*.json")
    day = 86400
    old, recent = current.with_name("stat-old.json"), current.with_name("stat-recent.json")
    for p, age in ((old, PRUNE_DAYS + 1), (recent, PRUNE_DAYS - 1), (current, 2)):
        if p != current:
            p.write_text("{}")
        t = p.stat().st_mtime - age * day
        os.utime(p, (t, t))
    _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(f))  # same settings: the index is in use
    assert current.stat().st_mtime > recent.stat().st_mtime + day  # its mtime says so
    assert old.exists()  # nothing new was created: nothing pruned
    _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", "--ignore", "VL3", str(f))  # new settings
    assert not old.exists() and recent.exists() and current.exists()
    assert len(list((tmp_path / "cache").glob("v3/stat-*.json"))) == 3


def _package(root, checkout: bool):
    pkg = root / "pkg"
    (pkg / "rules").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "rules" / "vl1.py").write_text("A = 1\n")
    if checkout:
        (root / "pyproject.toml").write_text("[project]\nname = 'pkg'\n")
    return pkg


def test_code_signature_in_a_source_checkout_follows_every_file_of_the_package(tmp_path):
    from vllm_lint.pipeline.cache import code_signature

    pkg = _package(tmp_path, checkout=True)
    before = code_signature(str(pkg))
    assert code_signature(str(pkg)) == before  # (stable while nothing changes)
    rule = pkg / "rules" / "vl1.py"
    rule.write_text("A = 22\n")  # an edited rule of an editable install: another size
    assert code_signature(str(pkg)) != before
    edited = code_signature(str(pkg))
    os.utime(rule, ns=(1, 1))  # the same size, another mtime
    touched = code_signature(str(pkg))
    assert touched != edited
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "x.pyc").write_bytes(b"x")  # compiled files are not the code's identity
    assert code_signature(str(pkg)) == touched


def test_code_signature_of_an_install_is_its_init_written_by_each_reinstall(tmp_path):
    from vllm_lint.pipeline.cache import code_signature

    pkg = _package(tmp_path, checkout=False)
    os.utime(pkg / "__init__.py", ns=(10, 10))
    before = code_signature(str(pkg))
    (pkg / "rules" / "vl1.py").write_text("A = 22\n")  # (a one-stat signature: an install's files change together)
    assert code_signature(str(pkg)) == before
    os.utime(pkg / "__init__.py", ns=(20, 20))  # a reinstall writes the package anew
    assert code_signature(str(pkg)) != before


def test_a_cache_made_by_other_code_of_the_same_version_is_not_used(tmp_path, monkeypatch):
    from vllm_lint.pipeline import cache as cache_mod

    settings = type("S", (), {})()
    monkeypatch.setattr(cache_mod, "code_signature", lambda: b"code-a")
    db = tmp_path / "db"
    db.mkdir()
    first = cache_mod.Cache.fingerprint_of(db, settings, ["VL101"], False)
    monkeypatch.setattr(cache_mod, "code_signature", lambda: b"code-b")
    assert first is not None and cache_mod.Cache.fingerprint_of(db, settings, ["VL101"], False) != first
