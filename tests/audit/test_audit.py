"""The upgrade audit end to end (`vllm-lint audit`) and through `vllm_lint.pipeline.audit` directly,
against the synthetic four-release database of audit_db.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SERVE = """#!/usr/bin/env bash
pip install vllm==0.8.5
VLLM_USE_V1=0 VLLM_OLD_KNOB=1 vllm serve m \\
  --swap-space 16 \\
  --num-scheduler-steps 8 \\
  --cuda-graph-sizes 1 2 4 \\
  --guided-decoding-backend xgrammar \\
  --dtype half \\
  --disable-log-requests \\
  --gpu-memory-utilization 0.95
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def audit_json(run_audit, *args):
    r = run_audit(*args, "--format", "json")
    return r, json.loads(r.output)


def by_name(findings):
    return {f["name"]: f for f in findings}


# ----------------------------------------------------------------------------- breaks


def test_breaks_from_pip_pin(run_audit, tmp_path):
    p = write(tmp_path, "serve.sh", SERVE)
    before = p.read_bytes()
    r, out = audit_json(run_audit, "--to", "0.27.1", str(p))
    assert r.exit_code == 1
    assert p.read_bytes() == before  # the audit never writes
    (la,) = out["files"][0]["launches"]
    assert la["from"] == "0.8.5" and la["from_source"] == "pip-install 0.8.5" and la["to"] == "0.27.1"
    assert not la["ready"]
    b = by_name(la["breaks"])
    assert b["--swap-space"]["what"] == "removed" and b["--swap-space"]["changed_in"] == "0.27.1"
    assert b["--swap-space"]["last_accepted"] == "0.10.0" and b["--swap-space"]["fix"] == "safe"
    assert b["--num-scheduler-steps"]["what"] == "removed" and b["--num-scheduler-steps"]["changed_in"] == "0.9.0"
    assert b["--num-scheduler-steps"]["fix"] == "unsafe"  # deleting it is the only way to start; what it set is lost
    assert b["--cuda-graph-sizes"]["what"] == "renamed"
    assert b["--cuda-graph-sizes"]["successor"] == "--cudagraph-capture-sizes"
    assert b["--guided-decoding-backend"]["successor"] == "--structured-outputs-config.backend"
    assert b["--dtype"]["what"] == "value" and b["--dtype"]["changed_in"] == "0.27.1"
    assert b["--dtype"]["old"] == "half" and b["--dtype"]["line"] == 8
    # a variable 0.27.1 no longer reads is ignored, not refused: the launch starts (issue 30)
    assert "VLLM_USE_V1" not in b
    (ignored,) = la["ignored"]
    assert ignored["name"] == "VLLM_USE_V1" and ignored["what"] == "env-removed" and ignored["kind"] == "env"
    assert ignored["category"] == "ignored" and "V0 engine" in ignored["message"]
    assert b["--swap-space"]["history"] == "vllm-lint flags show --swap-space"
    assert "--gpu-memory-utilization" not in b  # a valid value is no break
    assert out["exit_code"] == 1 and out["summary"]["breaks"] == 5
    assert out["summary"]["new_breaks"] == 5 and out["summary"]["ignored"] == 1


def test_value_invalid_at_both_ends_is_no_value_break(run_audit, tmp_path):
    p = write(tmp_path, "a.sh", "vllm serve m --dtype fp99 --tensor-parallel-size two\n")
    r, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(p))
    la = out["files"][0]["launches"][0]
    assert la["breaks"] == [] and r.exit_code == 0
    # ... but the lint run at B still reports them, as left to do by hand
    assert {x["code"] for x in out["files"][0]["remaining"]} == {"VL105"}


def test_switch_that_takes_a_value_is_a_break(run_audit, tmp_path):
    p = write(tmp_path, "a.sh", "vllm serve m --enable-prefix-caching --port 1\n")
    r, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(p))
    b = by_name(out["files"][0]["launches"][0]["breaks"])
    assert b["--enable-prefix-caching"]["what"] == "arity"
    assert b["--enable-prefix-caching"]["changed_in"] == "0.27.1"
    assert r.exit_code == 1


def test_ready_launch_exit_zero(run_audit, tmp_path):
    p = write(tmp_path, "ok.sh", "vllm serve m --tensor-parallel-size 2 --gpu-memory-utilization 0.9\n")
    r, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(p))
    assert r.exit_code == 0
    assert out["summary"]["ready"] == 1
    assert out["summary"]["ready_launches"] == [{"path": str(p), "line": 1, "from": "0.8.5"}]
    assert out["files"][0]["diff"] == ""


# ----------------------------------------------------------------------------- deprecated


def test_deprecated_on_the_way(run_audit, tmp_path):
    p = write(tmp_path, "serve.sh", SERVE)
    _, out = audit_json(run_audit, "--to", "0.27.1", str(p))
    d = by_name(out["files"][0]["launches"][0]["deprecated"])
    assert set(d) == {"--disable-log-requests", "VLLM_OLD_KNOB"}  # breaks are not listed twice
    assert d["--disable-log-requests"]["changed_in"] == "0.10.0"
    assert d["--disable-log-requests"]["already_at_from"] is False
    assert d["VLLM_OLD_KNOB"]["changed_in"] == "0.27.1"


def test_deprecated_between_but_removed_by_to_is_a_break(run_audit, tmp_path):
    p = write(tmp_path, "a.sh", "vllm serve m --guided-decoding-backend xgrammar\n")
    _, out = audit_json(run_audit, "--from", "0.9.0", "--to", "0.10.0", str(p))
    la = out["files"][0]["launches"][0]
    assert la["breaks"] == []
    (d,) = la["deprecated"]
    assert d["name"] == "--guided-decoding-backend" and d["changed_in"] == "0.10.0"
    assert d["successor"] == "--structured-outputs-config.backend"


# ----------------------------------------------------------------------------- drift


def test_default_drift(run_audit, tmp_path):
    p = write(tmp_path, "a.sh", "vllm serve m --tensor-parallel-size 2\n")
    _, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(p))
    d = by_name(out["files"][0]["launches"][0]["drift"])
    g = d["--gpu-memory-utilization"]
    assert (g["old"], g["new"], g["changed_in"], g["statically_known"]) == (0.9, 0.92, "0.9.0", True)
    assert g["changes"] == [{"version": "0.9.0", "old": 0.9, "new": 0.92}]
    m = d["--max-num-seqs"]
    assert m["what"] == "default-computed" and not m["statically_known"]
    assert m["old"] == 256 and m["new_computed"] and m["changed_in"] == "0.10.0"
    assert "not statically known" in m["message"]
    c = d["--cuda-graph-sizes"]
    assert c["what"] == "moved" and c["successor"] == "--cudagraph-capture-sizes"
    assert (c["old"], c["new"], c["changed_in"]) == ([512], [1, 2, 4, 8], "0.27.1")
    assert "--max-model-len" not in d  # computed on both sides
    assert "--swap-space" not in d and "--num-scheduler-steps" not in d  # gone, not drift
    assert "--optimization-level" not in d  # new, not drift
    assert "--tensor-parallel-size" not in d and "--port" not in d


def test_drift_skips_options_the_launch_sets(run_audit, tmp_path):
    p = write(tmp_path, "a.sh", "vllm serve m --gpu-memory-utilization 0.9 --cudagraph-capture-sizes 8\n")
    _, out = audit_json(run_audit, "--from", "0.10.0", "--to", "0.27.1", str(p))
    d = by_name(out["files"][0]["launches"][0]["drift"])
    assert "--gpu-memory-utilization" not in d and "--cudagraph-capture-sizes" not in d
    assert "--cuda-graph-sizes" not in d  # moved onto an option the launch sets


def test_no_drift_between_same_defaults(run_audit, tmp_path):
    p = write(tmp_path, "a.sh", "vllm serve m\n")
    _, out = audit_json(run_audit, "--from", "0.9.0", "--to", "0.9.0", str(p))
    assert out["files"][0]["launches"][0]["drift"] == []


# ----------------------------------------------------------------------------- fixes and semantic check


def test_fix_diff_and_remaining(run_audit, tmp_path):
    p = write(tmp_path, "serve.sh", SERVE)
    _, out = audit_json(run_audit, "--to", "0.27.1", str(p))
    f = out["files"][0]
    assert "-  --swap-space 16 \\\n" in f["diff"]
    assert "+  --cudagraph-capture-sizes 1 2 4 \\\n" in f["diff"]
    assert "+  --structured-outputs-config.backend xgrammar \\\n" in f["diff"]
    assert f["fixes_applied"] == 3
    rem = {(x["code"], x["message"].split("`")[1]): x for x in f["remaining"]}
    assert rem[("VL101", "--num-scheduler-steps")]["reason"].startswith("the fix may change behaviour")
    assert ("VL105", "half") in rem
    la = f["launches"][0]
    assert la["fixed"] and la["semantic_check"]["checked"]
    assert la["semantic_check"]["differences"] == []
    assert la["semantic_check"]["removed_outright"] == ["--swap-space", "--num-scheduler-steps"]
    assert {x["code"] for x in la["remaining"]} == {x["code"] for x in f["remaining"]}


def test_semantic_check_reports_a_changed_reading(run_audit, tmp_path):
    # -O3 is --compilation-config at 0.8.5 and --optimization-level at 0.27.1
    p = write(tmp_path, "a.sh", "vllm serve m --swap-space 4 -O3\n")
    _, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(p))
    sem = out["files"][0]["launches"][0]["semantic_check"]
    assert sem["checked"]
    fields = {d["field"]: d for d in sem["differences"]}
    assert fields["compilation_config"]["old"] == "3" and fields["compilation_config"]["new"] is None
    assert fields["optimization_level"]["new"] == "3"


def test_unfixed_launch_is_not_semantically_checked(run_audit, tmp_path):
    p = write(tmp_path, "a.sh", "vllm serve m --num-scheduler-steps 2\n")
    _, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(p))
    la = out["files"][0]["launches"][0]
    assert not la["fixed"] and not la["semantic_check"]["checked"]


def test_unsafe_fixes_flag(run_audit, tmp_path, audit_db_path):
    from vllm_lint.pipeline.audit import audit_paths
    from vllm_lint.surface.db import Database

    p = write(tmp_path, "a.sh", "vllm serve m --swap-space 4\n")
    rep = audit_paths([str(p)], Database(audit_db_path), "0.27.1", from_version="0.8.5", unsafe_fixes=True)
    assert rep.files[0].fixes_applied == 1 and rep.exit_code == 1


# ----------------------------------------------------------------------------- front-ends


def test_dockerfile_from_tag(run_audit, tmp_path):
    p = write(tmp_path, "Dockerfile", 'FROM vllm/vllm-openai:v0.8.5\nENV VLLM_USE_V1=1\n'
                                      'CMD ["--model", "m", "--swap-space", "4"]\n')
    r, out = audit_json(run_audit, "--to", "0.27.1", str(tmp_path))
    f = out["files"][0]
    assert f["format"] == "dockerfile"
    names = {b["name"] for la in f["launches"] for b in la["breaks"]}
    assert "--swap-space" in names
    assert {x["name"] for la in f["launches"] for x in la["ignored"]} == {"VLLM_USE_V1"}
    assert all(la["from"] == "0.8.5" for la in f["launches"])
    assert '"--swap-space", "4"' in f["diff"].split("\n-", 1)[1]
    assert r.exit_code == 1


def test_yaml_image_tag(run_audit, tmp_path):
    p = write(tmp_path, "deploy.yaml", """apiVersion: apps/v1
kind: Deployment
metadata: {name: x}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.9.0
          args: ["m", "--cuda-graph-sizes", "8", "--port", "8000"]
""")
    r, out = audit_json(run_audit, "--to", "0.27.1", str(p))
    la = out["files"][0]["launches"][0]
    assert la["from"] == "0.9.0" and "image-tag" in la["from_source"]
    assert by_name(la["breaks"])["--cuda-graph-sizes"]["fix"] == "safe"
    assert '"--cudagraph-capture-sizes"' in out["files"][0]["diff"]
    assert la["semantic_check"]["checked"] and la["semantic_check"]["differences"] == []


def test_python_kwargs(run_audit, tmp_path):
    p = write(tmp_path, "offline.py", "from vllm import LLM\nllm = LLM(model='m', swap_space=8, "
                                      "num_scheduler_steps=4, tensor_parallel_size=2)\n")
    r, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(p))
    la = out["files"][0]["launches"][0]
    b = by_name(la["breaks"])
    assert b["swap_space"]["kind"] == "kwarg" and b["swap_space"]["what"] == "removed"
    assert "num_scheduler_steps" in b
    d = by_name(la["drift"])
    assert d["gpu_memory_utilization"]["old"] == 0.9 and d["gpu_memory_utilization"]["new"] == 0.92
    assert d["gpu_memory_utilization"]["changed_in"] == "0.9.0"
    assert "tensor_parallel_size" not in d
    assert r.exit_code == 1


# ----------------------------------------------------------------------------- usage and formats


def test_a_launch_naming_no_release_is_listed_not_fatal(run_audit, tmp_path):
    """Issue 18 defect 7: `audit .` stopped with exit 2 at the first launch naming no release.
    (Its options are accepted by every release: nothing says which it was written for.)"""
    p = write(tmp_path, "a.sh", "vllm serve m --port 8000\n")
    q = write(tmp_path, "b.sh", "docker run vllm/vllm-openai:v0.8.5 --model m --swap-space 4\n")
    r = run_audit("--to", "0.27.1", str(p), str(q))
    assert r.exit_code == 1, r.output
    assert "a.sh:1: not audited: the launch names no vLLM release" in r.output and "--default-from" in r.output
    assert "b.sh:1: docker:vllm/vllm-openai:v0.8.5, 0.8.5 -> 0.27.1" in r.output
    _, out = audit_json(run_audit, "--to", "0.27.1", str(p))
    assert out["summary"]["no_origin"] == [{"path": str(p), "line": 1}]


def test_without_from_a_launch_naming_no_release_starts_where_it_was_written_for(run_audit, tmp_path):
    """Issue 28: `--swap-space` is accepted by 0.8.5 and 0.10.0, not by 0.27.1 (the synthetic
    database): the audit starts at 0.10.0, the newest release that accepts the launch as written,
    and says so; --default-from and --from still win."""
    p = write(tmp_path, "a.sh", "vllm serve m --swap-space 4\n")
    _, out = audit_json(run_audit, "--to", "0.27.1", str(p))
    la = out["files"][0]["launches"][0]
    assert la["from"] == "0.10.0" and "accepts this launch as written (0.8.5 - 0.10.0)" in la["from_source"]
    assert out["summary"]["no_origin"] == []
    _, out = audit_json(run_audit, "--to", "0.27.1", "--default-from", "0.8.5", str(p))
    assert out["files"][0]["launches"][0]["from"] == "0.8.5"


def test_the_range_a_launch_was_written_for_says_which_words_no_release_has(run_audit, tmp_path):
    """The range leaves out an option no release ever had (`--stop`): the start says so, so that
    it does not read as the releases that accept `--stop`."""
    p = write(tmp_path, "a.sh", "vllm serve m --swap-space 4 --stop x\n")
    _, out = audit_json(run_audit, "--to", "0.27.1", str(p))
    la = out["files"][0]["launches"][0]
    assert la["from"] == "0.10.0"
    assert ("accepts this launch, but for `--stop` (no release has it), as written (0.8.5 - 0.10.0)"
            in la["from_source"]), la["from_source"]


def test_default_from_applies_only_where_a_launch_names_none(run_audit, tmp_path):
    p = write(tmp_path, "a.sh", "vllm serve m --swap-space 4\n")
    q = write(tmp_path, "b.sh", "docker run vllm/vllm-openai:v0.8.5 --model m --swap-space 4\n")
    _, out = audit_json(run_audit, "--to", "0.27.1", "--default-from", "0.10.0", str(p), str(q))
    got = {Path(f["path"]).name: (la["from"], la["from_source"]) for f in out["files"] for la in f["launches"]}
    assert got["a.sh"] == ("0.10.0", "--default-from") and got["b.sh"][0] == "0.8.5"
    assert out["summary"]["no_origin"] == []
    r = run_audit("--to", "0.27.1", "--default-from", "0.10.0", "--from", "0.8.5", str(p))
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1


def test_an_inverted_option_compares_by_meaning(run_audit, tmp_path):
    """Issue 18 defect 6: `--disable-log-requests` sets disable_log_requests at 0.16.0 and the
    inverse enable_log_requests at 0.33.0; request logging is off in both (the shipped database)."""
    import importlib.resources

    db = str(importlib.resources.files("vllm_lint.flag_db"))
    p = write(tmp_path, "a.sh", "vllm serve m --swap-space 4 --disable-log-requests\n")
    _, out = audit_json(run_audit, "--db", db, "--from", "0.16.0", "--to", "0.33.0", str(p))
    la = out["files"][0]["launches"][0]
    assert la["semantic_check"]["checked"] and la["semantic_check"]["differences"] == []
    q = write(tmp_path, "b.sh", "vllm serve m --port 1\n")
    _, out = audit_json(run_audit, "--db", db, "--from", "0.16.0", "--to", "0.33.0", str(q))
    assert "--disable-log-requests" not in {f["name"] for f in out["files"][0]["launches"][0]["drift"]}
    _, out = audit_json(run_audit, "--db", db, "--from", "0.8.5", "--to", "0.33.0", str(q))
    drift = {f["name"]: f for f in out["files"][0]["launches"][0]["drift"]}
    # a real change: logging on by default at 0.8.5, off at 0.33.0 (in the option's own terms)
    assert (drift["--disable-log-requests"]["old"], drift["--disable-log-requests"]["new"]) == (False, True)


def test_markdown_numbers_lines_of_the_original_file_and_says_it_plainly(run_audit, tmp_path):
    """Issue 18 defect 16: "left to do by hand" gave post-fix lines, "breaks" original ones."""
    p = write(tmp_path, "a.sh", "vllm serve m \\\n  --swap-space 4 \\\n  --port 1\n"
                                "vllm serve m --bogus-option 1\n")
    r = run_audit("--from", "0.8.5", "--to", "0.27.1", "--format", "markdown", str(p))
    left = [line for line in r.output.splitlines() if line.startswith("- line") and "VL103" in line]
    assert left and left[0].startswith("- line 4:"), r.output
    assert "A already rejected" not in r.output and "new since A" not in r.output
    text = run_audit("--from", "0.8.5", "--to", "0.27.1", str(p)).output
    assert f"{p}:4: VL103" in text and "new since A" not in text


@pytest.mark.parametrize("args", [["--to", "9.9.9"], ["--from", "nonsense"], ["--from", "0.27.1", "--to", "0.8.5"]])
def test_bad_versions_exit_2(run_audit, tmp_path, args):
    p = write(tmp_path, "a.sh", "vllm serve m\n")
    r = run_audit(*args, str(p))
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1


def test_to_defaults_to_newest(run_audit, tmp_path):
    p = write(tmp_path, "a.sh", "vllm serve m\n")
    _, out = audit_json(run_audit, "--from", "0.8.5", str(p))
    assert out["to"] == "0.27.1" and out["from"] == "0.8.5"


def test_json_schema_keys(run_audit, tmp_path):
    write(tmp_path, "serve.sh", SERVE)
    _, out = audit_json(run_audit, "--to", "0.27.1", str(tmp_path))
    assert set(out) == {"schema", "from", "to", "exit_code", "summary", "files", "drift"}
    assert out["schema"] == 2
    assert set(out["summary"]) == {"files", "launches", "ready", "breaks", "new_breaks", "ignored", "deprecated", "drift",
                                   "fixes_applied",
                                   "remaining", "semantic_differences", "no_origin", "per_file", "ready_launches"}
    f = out["files"][0]
    assert set(f) == {"path", "format", "error", "no_origin", "diff", "fixes_applied", "fix_note", "remaining",
                      "launches"}
    la = f["launches"][0]
    assert set(la) == {"line", "entry", "from", "from_source", "to", "ready", "opaque", "fixed", "breaks",
                       "ignored", "deprecated", "drift", "semantic_check", "remaining"}
    finding_keys = {"category", "kind", "name", "what", "message", "written", "line", "column", "changed_in",
                    "changes", "last_accepted", "successor", "old", "new", "statically_known", "old_computed",
                    "new_computed", "empty_to_empty", "already_at_from", "fix", "fix_message", "history"}
    for cat in ("breaks", "ignored", "deprecated", "drift"):
        for x in la[cat]:
            assert set(x) == finding_keys and x["category"] == {"breaks": "break"}.get(cat, cat)
    (group,) = out["drift"]
    assert set(group) == {"from", "to", "opaque", "launches", "drift"}
    assert all(set(x) == finding_keys | {"launches"} for x in group["drift"])


def test_markdown_reads_as_a_pr_description(run_audit, tmp_path):
    write(tmp_path, "serve.sh", SERVE)
    write(tmp_path, "ok.sh", "pip install vllm==0.9.0\nvllm serve m --tensor-parallel-size 2\n")
    r = run_audit("--to", "0.27.1", "--format", "markdown", str(tmp_path))
    md = r.output
    assert r.exit_code == 1
    assert md.startswith("## vLLM upgrade audit: each launch's release → 0.27.1")
    assert "| Breaks | 5 |" in md and "| Ignored at 0.27.1 (accepted, no longer acting) | 1 |" in md
    assert "| File | Launches |" in md
    assert "Already ready for 0.27.1:" in md and "ok.sh:2" in md
    assert "```diff" in md and "<details>" in md
    assert "`vllm-lint flags show --swap-space`" in md
    assert "https://github.com/vllm-project/vllm/releases/tag/v0.27.1" in md
    assert "**Left to do by hand**" in md


def test_text_format(run_audit, tmp_path):
    p = write(tmp_path, "serve.sh", SERVE)
    r = run_audit("--to", "0.27.1", str(p))
    assert r.exit_code == 1
    assert "Breaks at 0.27.1 (5):" in r.output and "Ignored at 0.27.1 (1):" in r.output
    assert "history: vllm-lint flags show --num-scheduler-steps" in r.output
    assert "Summary: 1 file(s), 1 launch(es), 0 ready" in r.output


def test_unparseable_file_is_reported_not_fatal(run_audit, tmp_path):
    write(tmp_path, "bad.yaml", "apiVersion: v1\nkind: Pod\nspec: [\n  vllm serve m\n")
    write(tmp_path, "ok.sh", "vllm serve m\n")
    r, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(tmp_path))
    errs = [f for f in out["files"] if f["error"]]
    assert r.exit_code == 0
    assert all(f["launches"] == [] for f in errs)


def test_drift_between_empty_values_is_marked(run_audit, tmp_path):
    p = write(tmp_path, "a.sh", "vllm serve m\n")
    _, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(p))
    d = by_name(out["files"][0]["launches"][0]["drift"])
    r = d["--reasoning-parser"]
    assert r["empty_to_empty"] and (r["old"], r["new"], r["changed_in"]) == (None, "", "0.9.0")
    assert not d["--gpu-memory-utilization"]["empty_to_empty"]
    text = run_audit("--from", "0.8.5", "--to", "0.27.1", str(p)).output
    assert "likely cosmetic): --reasoning-parser (null -> \"\")" in text


def test_rename_drift_only_when_the_successor_is_new(run_audit, tmp_path):
    # at 0.10.0 --cudagraph-capture-sizes already exists: its own drift is reported, not a move
    p = write(tmp_path, "a.sh", "vllm serve m\n")
    _, out = audit_json(run_audit, "--from", "0.10.0", "--to", "0.27.1", str(p))
    d = by_name(out["files"][0]["launches"][0]["drift"])
    assert "--cuda-graph-sizes" not in d
    c = d["--cudagraph-capture-sizes"]
    assert (c["what"], c["old"], c["new"], c["changed_in"]) == ("default", [512], [1, 2, 4, 8], "0.27.1")


def test_semantic_check_leaves_out_options_from_rejected(run_audit, tmp_path):
    # --cudagraph-capture-sizes does not exist at 0.9.0: nothing to preserve, not a difference
    p = write(tmp_path, "a.sh", "vllm serve m --swap-space 4 --cudagraph-capture-sizes 8 --port 1\n")
    _, out = audit_json(run_audit, "--from", "0.9.0", "--to", "0.27.1", str(p))
    sem = out["files"][0]["launches"][0]["semantic_check"]
    assert sem["checked"] and sem["differences"] == []
    assert sem["not_accepted_at_from"] == ["--cudagraph-capture-sizes"]
    assert sem["removed_outright"] == ["--swap-space"]


def test_abbreviation_read_as_another_option_is_a_break(run_audit, tmp_path):
    # --cuda abbreviates --cuda-graph-sizes at 0.8.5 and --cudagraph-capture-sizes at 0.27.1
    p = write(tmp_path, "a.sh", "vllm serve m --cuda 8\n")
    r, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(p))
    (b,) = out["files"][0]["launches"][0]["breaks"]
    assert b["what"] == "abbreviation" and b["name"] == "--cuda-graph-sizes"
    assert "--cudagraph-capture-sizes" in b["message"]
    assert r.exit_code == 1


# ----------------------------------------------------------------------------- issue 30: the audit reads right


def test_a_variable_no_longer_read_is_ignored_and_one_refused_at_start_is_a_break(run_audit, tmp_path):
    """"Breaks at X" is what X refuses: VLLM_USE_V1 is no longer read at 0.27.1 (the launch starts),
    VLLM_LEGACY_MODE makes 0.27.1 refuse to start (its env_refused table); "Ready" counts so."""
    p = write(tmp_path, "a.sh", "VLLM_USE_V1=1 vllm serve m --port 1\n")
    q = write(tmp_path, "b.sh", "VLLM_LEGACY_MODE=1 vllm serve m --port 1\n")
    r, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(p))
    la = out["files"][0]["launches"][0]
    assert la["breaks"] == [] and la["ready"] and r.exit_code == 0
    assert [(x["name"], x["category"], x["what"]) for x in la["ignored"]] == [("VLLM_USE_V1", "ignored", "env-removed")]
    assert out["summary"]["ready"] == 1 and out["summary"]["ignored"] == 1 and out["summary"]["breaks"] == 0
    text = run_audit("--from", "0.8.5", "--to", "0.27.1", str(p)).output
    assert "Ignored at 0.27.1 (1):" in text and "Breaks at" not in text and "READY" in text
    r, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(q))
    (b,) = out["files"][0]["launches"][0]["breaks"]
    assert (b["name"], b["what"]) == ("VLLM_LEGACY_MODE", "env-removed") and "refuse to start" in b["message"]
    assert r.exit_code == 1


def test_default_drift_is_listed_once_for_the_launches_it_touches(run_audit, tmp_path):
    """Five launches from one release used to repeat the same drift five times (71 entries)."""
    for i in range(5):
        write(tmp_path, f"s{i}.sh", "vllm serve m --port 1\n" if i else "vllm serve m --gpu-memory-utilization 0.9\n")
    r, out = audit_json(run_audit, "--from", "0.8.5", "--to", "0.27.1", str(tmp_path))
    per_launch = sum(len(la["drift"]) for f in out["files"] for la in f["launches"])
    (group,) = out["drift"]
    names = [x["name"] for x in group["drift"]]
    assert len(names) == len(set(names)) == out["summary"]["drift"] < per_launch
    gmu = next(x for x in group["drift"] if x["name"] == "--gpu-memory-utilization")
    assert [Path(x["path"]).name for x in gmu["launches"]] == ["s1.sh", "s2.sh", "s3.sh", "s4.sh"]
    text = run_audit("--from", "0.8.5", "--to", "0.27.1", str(tmp_path)).output
    assert text.count("default 0.9 at 0.8.5 -> 0.92 at 0.27.1") == 1
    assert text.count("Default drift 0.8.5 -> 0.27.1") == 1
    md = run_audit("--from", "0.8.5", "--to", "0.27.1", "--format", "markdown", str(tmp_path)).output
    assert md.count("| `--gpu-memory-utilization` |") == 1 and md.count("### Default drift 0.8.5 → 0.27.1") == 1


def test_a_charts_model_is_set_so_its_default_is_no_drift(run_audit, tmp_path):
    """production-stack passes modelURL as the model: --model's default changing is no drift there."""
    p = write(tmp_path, "values.yaml", 'servingEngineSpec:\n  modelSpec:\n  - name: "m"\n'
                                       '    repository: "vllm/vllm-openai"\n    tag: "v0.8.5"\n'
                                       '    modelURL: "org/model"\n    vllmConfig:\n      maxModelLen: 4096\n')
    q = write(tmp_path, "a.sh", "pip install vllm==0.8.5\nVLLM_PORT=1 python -m vllm.entrypoints.openai.api_server --port 1\n")
    _, out = audit_json(run_audit, "--to", "0.27.1", str(p), str(q))
    drift = {Path(f["path"]).name: {x["name"] for la in f["launches"] for x in la["drift"]} for f in out["files"]}
    assert "--model" not in drift["values.yaml"]
    assert "--model" in drift["a.sh"]  # a launch that names no model runs the default one


def test_the_semantic_check_reads_a_keyword_as_the_source_release_accepts_it(run_audit, tmp_path):
    """AsyncEngineArgs takes disable_log_requests at 0.4.0.post1 (the lint there passes it): the
    semantic check said 0.4.0.post1 itself rejected it. LLM(...) does refuse it (EngineArgs lacks it)."""
    import importlib.resources

    db = str(importlib.resources.files("vllm_lint.flag_db"))
    p = write(tmp_path, "a.py", "from vllm import AsyncEngineArgs\n"
                                "a = AsyncEngineArgs(model='m', disable_log_requests=True, swap_space=4)\n")
    _, out = audit_json(run_audit, "--db", db, "--from", "0.4.0.post1", "--to", "0.33.0", str(p))
    sem = out["files"][0]["launches"][0]["semantic_check"]
    assert sem["checked"] and sem["not_accepted_at_from"] == []
    q = write(tmp_path, "b.py", "from vllm import LLM\nllm = LLM(model='m', disable_log_requests=True, swap_space=4)\n")
    _, out = audit_json(run_audit, "--db", db, "--from", "0.4.0.post1", "--to", "0.33.0", str(q))
    assert out["files"][0]["launches"][0]["semantic_check"]["not_accepted_at_from"] == ["disable_log_requests"]
