"""benchmarks/targets.py and trees.py: the trees hold what they say (the rule fixtures' inputs,
no snapshots), and a figure is the median of per-round ratios against the same round's baseline."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import targets  # noqa: E402
import trees  # noqa: E402


def test_dense_tree_copies_the_fixture_inputs_only(tmp_path):
    n = trees.dense(tmp_path / "dense", copies=2)
    written = [p for p in (tmp_path / "dense").rglob("*") if p.is_file()]
    assert len(written) == n and n > 200
    assert not any(p.name.endswith((".snap", ".fixed")) or p.name == "harness.toml" for p in written)
    one = {p.relative_to(tmp_path / "dense" / "copy0") for p in (tmp_path / "dense" / "copy0").rglob("*") if p.is_file()}
    two = {p.relative_to(tmp_path / "dense" / "copy1") for p in (tmp_path / "dense" / "copy1").rglob("*") if p.is_file()}
    assert one == two and len(one) * 2 == n


def test_ratios_are_taken_round_by_round(monkeypatch, tmp_path):
    # the baseline's CPU doubles after the warm-up round; the subject is always 1.5x its round's
    cpu = iter([1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0])
    monkeypatch.setattr(targets.run, "measure", lambda cmd, cwd, env: {"cpu": next(cpu), "wall": 1.0, "rc": 0, "err": ""})
    prepared = []
    res = targets.rounds((["base"], tmp_path, None), {"after": (["lint"], tmp_path, None)}, 3, prepare=prepared.append)
    assert res["after"]["cpu_ratio"] == [1.5, 1.5, 1.5]
    assert res["after"]["runs"] == 3 and res["baseline"]["cpu_ms"] == 4000.0
    assert prepared == ["baseline", "after"] * 4  # the warm-up round is prepared too


def test_copies_of_a_generated_tree_hold_the_same_files_in_one_repository(tmp_path):
    n = trees.copies(tmp_path / "c", 120, 3, ignore_files=True)
    repo = tmp_path / "c" / "repo"
    assert (repo / ".git").is_dir() and not (repo / "copy0" / ".git").exists()
    per = [sorted(p.relative_to(repo / f"copy{c}") for p in (repo / f"copy{c}").rglob("*") if p.is_file())
           for c in range(3)]
    assert per[0] == per[1] == per[2] and per[0]
    folders = [d for d in repo.rglob("*") if d.is_dir() and ".git" not in d.parts]
    assert all((d / ".gitignore").is_file() for d in folders)
    assert n == sum(1 for p in repo.rglob("*") if p.is_file() and ".git" not in p.relative_to(repo).parts[:1])
