"""The result cache: hits on unchanged files, misses on any change of content or settings,
never stale across database changes, safe to corrupt."""

from __future__ import annotations

import json


def _lint(run_cli, monkeypatch, tmp_path, *args):
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    r = run_cli("--output-format", "json", *args)
    return [(d["code"], d["location"]["row"]) for d in json.loads(r.output)]


def test_second_run_reads_cache_and_agrees(run_cli, monkeypatch, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4 --dtype fp16\n")
    first = _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p))
    entries = list((tmp_path / "cache").rglob("*.json"))
    assert len(entries) == 1 and (tmp_path / "cache" / ".gitignore").exists()
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == first
    # a different target is a different key
    other = _lint(run_cli, monkeypatch, tmp_path, "-t", "0.10.0", str(p))
    assert other != first and len(list((tmp_path / "cache").rglob("*.json"))) == 2


def test_content_change_and_corrupt_entry(run_cli, monkeypatch, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --swap-space 4\n")
    assert _lint(run_cli, monkeypatch, tmp_path, "-t", "0.27.1", str(p)) == [("VL101", 1)]
    for e in (tmp_path / "cache").rglob("*.json"):
        e.write_text("{corrupt")
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
