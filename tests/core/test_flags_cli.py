"""flags list / show / diff on the synthetic database."""

from __future__ import annotations

import json


def test_list_json_and_env(run_cli):
    r = run_cli("flags", "list", "--version", "0.27", "--format", "json")
    rows = json.loads(r.output)
    tp = next(o for o in rows if o["name"] == "--tensor-parallel-size")
    assert tp["aliases"] == ["-tp"] and tp["type"] == "int" and tp["default"] == 1
    ee = next(o for o in rows if o["name"] == "--enforce-eager")
    assert "--no-enforce-eager" in ee["aliases"] and ee["kind"] == "negatable"
    env = json.loads(run_cli("flags", "list", "--version", "0.8.5", "--env", "--format", "json").output)
    assert {e["name"] for e in env} >= {"VLLM_USE_V1"} and set(env[0]) >= {"name", "default", "deprecated"}


def test_unknown_version_lists_nearest(run_cli):
    r = run_cli("flags", "list", "--version", "0.9.1")
    assert r.exit_code == 2 and "0.8.5" in r.output and "0.10.0" in r.output


def test_show_any_spelling(run_cli):
    for name in ("swap-space", "--swap-space", "swap_space"):
        r = run_cli("flags", "show", name, "--format", "json")
        st = json.loads(r.output)
        assert st["accepted"] == [{"first": "0.8.5", "last": "0.10.0"}] and st["removed_in"] == ["0.27.1"]
    r = run_cli("flags", "show", "cuda-graph-sizes")
    assert "successor:   --cudagraph-capture-sizes" in r.output and "deprecated from: 0.10.0" in r.output
    r = run_cli("flags", "show", "VLLM_USE_V1", "--format", "json")
    assert json.loads(r.output)["removed_in"] == ["0.27.1"]
    r = run_cli("flags", "show", "async-scheduling", "--format", "json")
    assert {"version": "0.27.1", "what": "default", "old": False, "new": None} in json.loads(r.output)["changes"]
    assert run_cli("flags", "show", "nonsense-flag").exit_code == 1


def test_diff(run_cli):
    d = json.loads(run_cli("flags", "diff", "0.10.0", "0.27.1", "--format", "json").output)
    assert "--swap-space" in d["options"]["removed"]
    assert {"old": "--cuda-graph-sizes", "new": "--cudagraph-capture-sizes", "evidence": "test"} in d["options"]["renamed"]
    assert "--optimization-level" in d["options"]["added"]
    assert "VLLM_USE_V1" in d["env"]["removed"] and "VLLM_NEW_THING" in d["env"]["added"]
    md = run_cli("flags", "diff", "0.10.0", "0.27.1", "--format", "markdown").output
    assert "### Removed options" in md and "`--swap-space`" in md


def test_show_a_platform_plugins_variable(run_cli):
    """Issue 33: a variable only a platform plugin reads has a history too, marked as the plugin's."""
    r = run_cli("flags", "show", "VLLM_SPYRE_USE_CB")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("VLLM_SPYRE_USE_CB (environment variable of a platform plugin; no vLLM release reads it)")
    assert "vllm-spyre: read by" in r.output
    data = json.loads(run_cli("flags", "show", "VLLM_SPYRE_USE_CB", "--format", "json").output)
    assert data["kind"] == "plugin-env" and data["plugins"][0]["plugin"] == "vllm-spyre"
    assert run_cli("flags", "show", "VLLM_SPYRE_NOT_A_VARIABLE").exit_code == 1
