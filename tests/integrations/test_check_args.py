"""``vllm-lint check-args`` and ``vllm_lint.check_args`` (issue 30): an argument list built in code
gets the findings, severities and fixes of the same launch written in a file, with the index of
the word each finding is about."""

from __future__ import annotations

import json

import pytest

import vllm_lint

WORDS = ["vllm", "serve", "m", "--swap-space", "4", "--cuda-graph-sizes", "1", "2"]


def test_findings_and_fixes_match_the_same_launch_in_a_file(synth_db_path):
    r = vllm_lint.check_args(WORDS, target="0.27.1", db=str(synth_db_path))
    in_file = vllm_lint.lint("vllm serve m --swap-space 4 --cuda-graph-sizes 1 2\n", "serve.sh", target="0.27.1",
                             db=str(synth_db_path))
    assert [(f.diagnostic.code, f.diagnostic.severity, f.diagnostic.message) for f in r.findings] == \
        [(d.code, d.severity, d.message) for d in in_file]
    assert [(f.diagnostic.code, f.arg_index) for f in r.findings] == [("VL101", 3), ("VL102", 5)]
    assert r.target == "0.27.1"
    assert r.fixed_args == ["vllm", "serve", "m", "--cudagraph-capture-sizes", "1", "2"]
    assert r.args == WORDS  # the input is not changed


@pytest.mark.parametrize("words, index", [
    (["serve", "m", "--swap-space", "4"], 2),  # `vllm` implied
    (["m", "--swap-space", "4"], 1),  # the words after `vllm serve`
    (["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "m", "--swap-space", "4"], 5),
])
def test_the_spellings_of_an_argument_list(synth_db_path, words, index):
    r = vllm_lint.check_args(words, target="0.27.1", db=str(synth_db_path))
    assert [(f.diagnostic.code, f.arg_index) for f in r.findings] == [("VL101", index)]
    assert "--swap-space" not in r.fixed_args and r.fixed_args[:index] == words[:index]


def test_words_that_need_quoting_keep_their_positions(synth_db_path):
    words = ["vllm", "serve", "my model", "--served-model-name", "{{ x }} $HOME 'q'", "--swap-space", "4"]
    r = vllm_lint.check_args(words, target="0.27.1", db=str(synth_db_path))
    assert [(f.diagnostic.code, f.arg_index) for f in r.findings] == [("VL101", 5)]
    assert r.fixed_args == words[:5]


def test_environment_findings_name_the_variable(synth_db_path):
    clean = vllm_lint.check_args(["serve", "m"], target="0.27.1", db=str(synth_db_path))
    assert clean.findings == [] and clean.fixed_args == ["serve", "m"]
    r = vllm_lint.check_args(["serve", "m"], target="0.27.1", env={"VLLM_NOT_A_VARIABLE": "1"}, db=str(synth_db_path))
    assert [(f.diagnostic.code, f.arg_index, f.env_name) for f in r.findings] == [("VL202", None, "VLLM_NOT_A_VARIABLE")]


@pytest.mark.parametrize("bad", [[], "vllm serve m", ["serve", 3]])
def test_bad_argument_lists_are_one_line_errors(synth_db_path, bad):
    with pytest.raises(vllm_lint.ArgsError):
        vllm_lint.check_args(bad, db=str(synth_db_path))


def test_the_command_line(run_cli):
    r = run_cli("check-args", "-t", "0.27.1", "--", *WORDS)
    assert r.exit_code == 1
    assert "arg 3 (--swap-space): VL101 [*] error (0.27.1)" in r.stdout
    assert "fixed: vllm serve m --cudagraph-capture-sizes 1 2" in r.stdout
    ok = run_cli("check-args", "-t", "0.27.1", "--output-format", "json", "--", "serve", "m")
    assert ok.exit_code == 0 and json.loads(ok.stdout)["findings"] == []
    assert run_cli("check-args").exit_code == 2
    assert run_cli("check-args", "--env", "not a pair", "--", "serve", "m").exit_code == 2
    unknown = run_cli("check-args", "-t", "0.99", "--", "serve", "m")
    assert unknown.exit_code == 2 and "0.99" in unknown.output


def test_json_lines_one_verdict_per_line(run_cli):
    lines = "\n".join([
        json.dumps(WORDS),
        json.dumps({"id": "a", "args": ["serve", "m"], "target": "0.8.5"}),
        "",
        "not json",
        json.dumps({"args": ["serve", "m"], "target": "0.99"}),
    ]) + "\n"
    r = run_cli("check-args", "--jsonl", "-t", "0.27.1", input=lines)
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert r.exit_code == 2  # a bad line wins over findings
    assert [f["code"] for f in out[0]["findings"]] == ["VL101", "VL102"] and out[0]["target"] == "0.27.1"
    assert out[0]["findings"][0]["arg_index"] == 3 and out[0]["findings"][0]["fix"]["applicability"] == "safe"
    assert out[1] == {"id": "a", "args": ["serve", "m"], "env": {}, "target": "0.8.5", "findings": [],
                      "fixed_args": ["serve", "m"], "fixed_env": {}}
    assert out[2]["line"] == 4 and "not JSON" in out[2]["error"]
    assert out[3]["line"] == 5 and "0.99" in out[3]["error"]
    findings_only = run_cli("check-args", "--jsonl", "-t", "0.27.1", input=json.dumps(WORDS) + "\n")
    assert findings_only.exit_code == 1
