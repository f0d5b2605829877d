"""The result cache: hits on unchanged files, misses on any change of content or settings,
never stale across database changes, safe to corrupt."""

from __future__ import annotations

import json


def _lint(run_cli, monkeypatch, tmp_path, *args):
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    r = run_cli("--output-format", "json", *args)
    return [(d["code"], d["location"]["row"]) for d in json.loads(r.output)]


def _entries(tmp_path):
    """Content-keyed entries (the stat index is a file of its own)."""
    return [e for e in (tmp_path / "cache").rglob("*.json") if not e.name.startswith("stat-")]


def test_second_run_reads_cache_and_agrees(run_cli, monkeypatch, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4 --dtype fp16\n")
    first = _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p))
    entries = _entries(tmp_path)
    assert len(entries) == 1 and (tmp_path / "cache" / ".gitignore").exists()
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == first
    # a different target is a different key
    other = _lint(run_cli, monkeypatch, tmp_path, "-t", "0.10.0", str(p))
    assert other != first and len(_entries(tmp_path)) == 2


def test_content_change_and_corrupt_entry(run_cli, monkeypatch, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4\n")
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == [("VL101", 1)]
    for e in (tmp_path / "cache").rglob("*.json"):
        e.write_text("{corrupt")  # entries and the stat index alike
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == [("VL101", 1)]
    p.write_text("vllm serve m --port 1\n")
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == []


def test_fix_mode_ignores_cached_fixable_findings(run_cli, monkeypatch, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --cuda-graph-sizes 8\n")
    _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p))
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    run_cli("-t", "0.27.1", "--fix", str(p))
    assert p.read_text() == "vllm serve m --cudagraph-capture-sizes 8\n"


def test_stat_index_skips_unchanged_clean_files_without_reading_them(run_cli, monkeypatch, tmp_path):
    clean = tmp_path / "clean.sh"
    clean.write_text("vllm serve m --port 1\n")
    other = tmp_path / "other.sh"
    other.write_text("echo hello\n")
    dirty = tmp_path / "dirty.sh"
    dirty.write_text("vllm serve m --swap-space 4\n")
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(tmp_path)) == [("VL101", 1)]
    import builtins

    opened = []
    real_open = builtins.open

    def spy(file, *a, **k):
        opened.append(str(file))
        return real_open(file, *a, **k)

    monkeypatch.setattr(builtins, "open", spy)
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(tmp_path)) == [("VL101", 1)]
    assert str(clean) not in opened and str(other) not in opened and str(dirty) in opened
    # a changed file is read again (size differs), and a changed pin invalidates clean launches
    clean.write_text("vllm serve m --swap-space 44\n")
    assert ("VL101", 1) in _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(clean))


def test_stat_index_respects_project_pin_changes(run_cli, monkeypatch, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --async-scheduling\n")
    (tmp_path / "requirements.txt").write_text("vllm==0.27.1\n")
    assert _lint(run_cli, monkeypatch, tmp_path, str(p)) == []
    (tmp_path / "requirements.txt").write_text("vllm==0.8.5\n")
    assert _lint(run_cli, monkeypatch, tmp_path, str(p)) == [("VL104", 1)]


def test_stat_index_answers_files_with_findings_without_reading_them(run_cli, monkeypatch, tmp_path):
    p = tmp_path / "dirty.sh"
    # a finding without a fix: JSON output reads the file only to position fix edits
    p.write_text("# a comment\nvllm serve m \\\n  --dtype fp16\n")
    first = _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p))
    assert first == [("VL105", 3)]
    import builtins

    real_open = builtins.open
    monkeypatch.setattr(builtins, "open", lambda f, *a, **k: (_ for _ in ()).throw(AssertionError(f))
                        if str(f) == str(p) else real_open(f, *a, **k))
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == first
