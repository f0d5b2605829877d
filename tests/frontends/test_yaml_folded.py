"""Folded (`>`) scalars: findings at each word's own line and column; --add-noqa puts the comment
on the block's header (inside the block a `#` is content that would reach vLLM), and that comment
covers the findings inside."""

from __future__ import annotations

import json

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
    got = json.loads(run_cli("--output-format", "json", "--select", "VL101", str(p)).output)
    assert [(d["location"]["row"], d["location"]["column"]) for d in got] == [(12, 9)]
    run_cli("--add-noqa", "--select", "VL101", str(p))
    assert p.read_text() == SRC.replace("      - >\n", "      - >  # vllm-lint: ignore[VL101]\n")
    assert json.loads(run_cli("--output-format", "json", "--select", "VL101", str(p)).output) == []
