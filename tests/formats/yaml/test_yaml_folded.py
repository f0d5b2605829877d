"""Folded (`>`) scalars: findings at each word's own line and column; --add-noqa puts the comment
on the block's header (inside the block a `#` is content that would reach vLLM), and that comment
covers the findings inside."""

from __future__ import annotations

import json

import pytest

SRC = """\
apiVersion: v1
kind: Pod
spec:
  containers:
  - name: s
    image: vllm/vllm-openai:v0.27.1
    command: ["/bin/sh", "-c"]
    args:
      - >
        vllm serve m
        --max-model-len 8192
        --swap-space 32
"""


def test_findings_point_inside_and_add_noqa_goes_on_the_header(run_cli, tmp_path):
    p = tmp_path / "pod.yaml"
    p.write_text(SRC)
    got = json.loads(run_cli("--output-format", "json", "--select", "VL101", str(p)).stdout)
    assert [(d["location"]["row"], d["location"]["column"]) for d in got] == [(12, 9)]
    run_cli("--add-noqa", "--select", "VL101", str(p))
    assert p.read_text() == SRC.replace("      - >\n", "      - >  # vllm-lint: ignore[VL101]\n")
    assert json.loads(run_cli("--output-format", "json", "--select", "VL101", str(p)).stdout) == []


# A multi-line plain or quoted scalar: a `#` at the end of any line but its last is content
# (quoted) or ends the scalar (plain), so --add-noqa writes after the scalar's last line, and that
# comment covers the findings inside. In a Helm template the YAML cannot be loaded to compare, so
# before this a comment inside the quotes passed the fixer's checks and reached vLLM.
MULTILINE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: NAME
spec:
  template:
    spec:
      containers:
      - name: s
        image: vllm/vllm-openai:v0.27.1
        command: ["/bin/sh", "-c"]
        args:
          - Qvllm serve m --max-model-len 8192 --swap-space 32
            --enforce-eagerQ
"""


def _args(text: str) -> str:
    import yaml

    return yaml.safe_load(text.replace("{{ .Values.name }}", "x"))["spec"]["template"]["spec"]["containers"][0]["args"][0]


@pytest.mark.parametrize("quote", ['"', "'", ""])
@pytest.mark.parametrize("templated", [False, True])
def test_add_noqa_never_writes_inside_a_multi_line_scalar(run_cli, tmp_path, quote, templated):
    src = MULTILINE.replace("Q", quote).replace("NAME", "{{ .Values.name }}" if templated else "s")
    if templated:
        (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: c\nversion: 0.1.0\n")
        (tmp_path / "values.yaml").write_text("name: s\n")
        (tmp_path / "templates").mkdir()
        p = tmp_path / "templates" / "dep.yaml"
    else:
        p = tmp_path / "dep.yaml"
    p.write_text(src)
    assert [d["code"] for d in json.loads(run_cli("--output-format", "json", "--select", "VL101", str(p)).stdout)] \
        == ["VL101"]
    run_cli("--add-noqa", "--select", "VL101", str(p))
    last = f"            --enforce-eager{quote}\n"
    assert p.read_text() == src.replace(last, last[:-1] + "  # vllm-lint: ignore[VL101]\n")
    assert _args(p.read_text()) == _args(src) == "vllm serve m --max-model-len 8192 --swap-space 32 --enforce-eager"
    assert json.loads(run_cli("--output-format", "json", "--select", "VL101,VL003", str(p)).stdout) == []


def test_a_comment_line_above_a_multi_line_scalar_covers_it(run_cli, tmp_path):
    src = MULTILINE.replace("Q", '"').replace("NAME", "s").replace(
        "          - \"vllm", "          # vllm-lint: ignore[VL101]\n          - \"vllm")
    p = tmp_path / "dep.yaml"
    p.write_text(src)
    assert json.loads(run_cli("--output-format", "json", "--select", "VL101,VL003", str(p)).stdout) == []


def test_add_noqa_in_a_markdown_yaml_fence_reads_the_fence_alone(run_cli, tmp_path):
    src = "# Deploy\n\nIt's easy:\n\n```yaml\nargs:\n  - \"vllm serve m --swap-space 32\n    --enforce-eager\"\n```\n"
    p = tmp_path / "README.md"
    p.write_text(src)
    run_cli("--add-noqa", "--select", "VL101", str(p))
    assert p.read_text() == src.replace('eager"\n', 'eager"  # vllm-lint: ignore[VL101]\n')
    assert json.loads(run_cli("--output-format", "json", "--select", "VL101,VL003", str(p)).stdout) == []
