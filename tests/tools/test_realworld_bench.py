"""The real-world benchmark's pure parts (benchmarks/realworld/bench.py: matching judged launches
with reported ones, reading the --verbose account, judging a release) and the consistency of its
committed data (manifest, launches, releases): no network, no files of the repositories."""

from __future__ import annotations

import hashlib
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "realworld"))

import bench  # noqa: E402


def _row(first: int, last: int) -> dict:
    return {"first": str(first), "last": str(last), "kind": "vllm-serve"}


def test_a_judged_launch_is_read_by_one_reported_launch_inside_its_lines():
    got = bench.match([_row(10, 20), _row(30, 31)], [(12, "0.8.5", "x"), (29, "0.8.5", "x")])
    assert [ok for _, ok in got] == [True, True]
    # one reported launch reads one judged launch, the nearest to its first line
    got = bench.match([_row(10, 20), _row(15, 16)], [(15, "0.8.5", "x")])
    assert sorted(ok for _, ok in got) == [False, True]
    # outside the lines and the slack: not read
    assert [ok for _, ok in bench.match([_row(10, 12)], [(10 - bench.SLACK - 1, "", ""), (12 + bench.SLACK + 1, "", "")])] == [False]


def test_the_verbose_account_names_read_unread_and_other_files(tmp_path):
    for name in ("a.sh", "b.yaml", "c.py"):
        (tmp_path / name).write_text("x\n")
    stderr = "\n".join([
        "a.sh: checked against vLLM 0.10.0 (image-tag v0.10.0) at line 3",
        "a.sh: VL301 skipped: the model is not known statically",
        "b.yaml: not read: no launch found",
        "c.py: template value unknown",
        "2 files held no vLLM launch.",
    ])
    read, unread, named = bench.account(stderr, tmp_path)
    assert read == {"a.sh": [(3, "0.10.0", "image-tag v0.10.0")]}
    assert unread == {"b.yaml": "no launch found"}
    assert named == {"a.sh", "b.yaml", "c.py"}


def test_a_release_is_right_when_the_tool_chose_it_for_a_launch_of_the_file():
    rep = [(3, "0.10.0", "image-tag v0.10.0"), (9, "0.33.0", "newest release in the database")]
    assert bench.release_right("0.10.0", rep, "0.33.0") is True
    assert bench.release_right("newest", rep, "0.33.0") is True
    assert bench.release_right("nightly", [(3, "0.10.0", "")], "0.33.0") is False
    assert bench.release_right("0.8.5", rep, "0.33.0") is False
    assert bench.release_right("0.8.5", [], "0.33.0") is None  # no launch read
    assert bench.release_right("?", rep, "0.33.0") is None  # nothing to judge
    # a release outside the database: right as the nearest it has
    assert bench.release_right("0.2.2", [(1, "0.4.0", "")], "0.33.0", "0.4.0") is True
    assert bench.release_right("0.35.0", [(1, "0.33.0", "")], "0.33.0", "0.4.0") is True
    assert bench.release_right("0.2.2", [(1, "0.33.0", "")], "0.33.0", "0.4.0") is False


def test_the_committed_data_holds_together():
    files = [r for r in bench.manifest("all") if r["role"] == "file"]
    keys = {(r["repo"], r["path"]) for r in files}
    repos = Counter(r["repo"] for r in files)
    assert len(keys) == len(files) >= 300 and len(repos) >= 100
    assert "vllm-project/vllm" not in repos and max(repos.values()) <= 6
    for r in bench.manifest("all"):
        parity = int(hashlib.sha256(r["repo"].encode()).hexdigest(), 16) % 2
        assert r["set"] == ("dev" if parity == 0 else "test"), r["repo"]
        assert len(r["commit"]) == 40 and r["role"] in ("file", "context")
    launches = bench._tsv("bench-launches.tsv")
    assert {(r["repo"], r["path"]) for r in launches} == keys
    for r in launches:
        if r["kind"] == "none":
            assert not r["first"] and not r["last"]
        else:
            assert 1 <= int(r["first"]) <= int(r["last"]), r
    releases = bench._tsv("bench-release.tsv")
    assert Counter((r["repo"], r["path"]) for r in releases) == Counter(keys)
    assert all(r["expected"] and r["evidence"] for r in releases)


def test_judge_counts_findings_judged_true_per_rule(capsys):
    import judge

    rows = [{"group": "o/r", "path": "o+r/a.sh", "line": 3, "code": "VL101", "option": "--x", "verdict": "true",
             "reason": "r"},
            {"group": "o/r", "path": "o+r/a.sh", "line": 4, "code": "VL101", "option": "--y", "verdict": "false",
             "reason": "r"}]
    found = [{**r, "message": "m"} for r in rows] + [
        {"group": "o/r", "path": "o+r/a.sh", "line": 5, "code": "VL202", "option": "VLLM_Z", "message": "m"}]
    res = judge.report(found, rows, by_rule=True)
    lines = {ln.split()[0]: ln.split()[1:] for ln in capsys.readouterr().out.splitlines() if ln.startswith("VL")}
    assert lines["VL101"] == ["2", "1", "1", "0", "50.0", "%"]
    assert lines["VL202"] == ["1", "0", "0", "1", "0.0", "%"]
    assert [f["option"] for f in res["unjudged"]] == ["VLLM_Z"]


def test_judge_counts_findings_dropped_on_purpose_apart(capsys):
    """A row judged true whose finding a change stopped raising on purpose (verdict ``dropped``, reason
    ``since <commit>: <why>``) is not a lost finding; raised again, or without that reason, it fails."""
    import judge

    def row(line, verdict, reason, code="VL502"):
        return {"group": "o/r", "path": "o+r/a.sh", "line": line, "code": code, "option": "--x",
                "verdict": verdict, "reason": reason}

    rows = [row(3, "true", "r"), row(4, "dropped", "since 3be762e: model table does not know the model"),
            row(5, "dropped", "since 3be762e: model table does not know the model"),
            row(6, "true", "r", code="VL101")]
    found = [{**rows[0], "message": "m"}]
    res = judge.report(found, rows)
    out = capsys.readouterr().out
    assert [r["line"] for r in res["lost"]] == [6]
    assert [r["line"] for r in res["dropped"]] == [4, 5] and not res["raised_again"] and not res["malformed"]
    assert "   2  VL502\tsince 3be762e: model table does not know the model" in out
    # raised again: the row no longer describes the tool, the finding is to be judged again
    res = judge.report(found + [{**rows[1], "message": "m"}], rows)
    assert [f["line"] for f in res["raised_again"]] == [4] and not res["unjudged"]
    # a drop must say since when and why
    res = judge.report(found, rows[:1] + [row(4, "dropped", "not raised any more")])
    assert [r["line"] for r in res["malformed"]] == [4]
