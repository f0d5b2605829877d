"""JSON manifests (issue 17): a pod's args read and fixed, a file that is not JSON is one parse
error, and --add-noqa says that JSON has no comments."""

from __future__ import annotations

from read_and_fix import check_read_and_fixed

POD_JSON = """{
  "apiVersion": "v1",
  "kind": "Pod",
  "spec": {
    "containers": [
      {
        "name": "vllm",
        "image": "vllm/vllm-openai:v0.27.1",
        "args": ["m", "--swap-space", "4"]
      }
    ]
  }
}
"""


def test_a_pod_manifest_is_read_and_fixed(run_cli, tmp_path):
    check_read_and_fixed(run_cli, tmp_path, "pod.json", POD_JSON, [("VL101", 9, 23)], '        "args": ["m"]\n')


def test_a_json_file_that_is_not_json_is_one_parse_error(run_cli, tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('{"image": "vllm/vllm-openai", args: [}\n')
    r = run_cli("-t", "0.27.1", str(p))
    assert r.exit_code == 1
    assert "VL001 error: cannot parse json: Expecting property name" in r.stdout


def test_add_noqa_skips_json_and_says_so(run_cli, tmp_path):
    p = tmp_path / "pod.json"
    p.write_text(POD_JSON)
    r = run_cli("-t", "0.27.1", "--add-noqa", str(p))
    assert r.exit_code == 1
    assert f"{p}:1: no suppression comment added for VL101" in r.stderr and "json files have no comments" in r.stderr
    assert p.read_text() == POD_JSON
