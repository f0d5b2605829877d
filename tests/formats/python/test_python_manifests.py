"""Kubernetes manifests in Python strings (:mod:`vllm_lint.frontends.python.manifests`): one
launch per manifest (an f-string's literal parts are not read again), each word at the string's
bytes, a formatted field an unknown value."""

from __future__ import annotations

from vllm_lint.frontends.python import extract
from span_invariants import check_spans

SOURCE = b'''import subprocess

def deploy(name, tp):
    manifest = f"""
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
spec:
  template:
    spec:
      containers:
      - name: server
        image: vllm/vllm-openai:v0.10.0
        args: ["--model", "org/m", "--tensor-parallel-size", "{tp}", "--swap-space", "4"]
"""
    subprocess.run(["kubectl", "apply", "-f", "-"], input=manifest.encode())

PLAIN = """apiVersion: v1
kind: Pod
spec:
  containers:
  - name: s
    image: vllm/vllm-openai:v0.10.0
    args: [--max-model-len, "4096"]
"""
'''


def test_each_manifest_string_is_one_launch_at_its_bytes():
    ex = extract(SOURCE, "deploy.py")
    check_spans(SOURCE, ex)
    plain, fstring = sorted(ex.launches, key=lambda la: -la.span.start)
    assert [(t.text, t.opaque) for t in fstring.tokens] == [
        ("--model", False), ("org/m", False), ("--tensor-parallel-size", False), ("{{ .PY1 }}", True),
        ("--swap-space", False), ("4", False)]
    swap = fstring.tokens[4]
    assert SOURCE[swap.span.start:swap.span.end] == b'"--swap-space"'
    assert [t.text for t in plain.tokens] == ["--max-model-len", "4096"]
    assert [v.version for v in plain.version_hints] == ["v0.10.0"]


def test_a_string_that_only_mentions_the_words_is_no_manifest():
    src = b'NOTE = "set apiVersion and kind: in the vllm manifest"\nX = f"apiVersion: {1}\\nkind: vllm"\n'
    assert extract(src, "notes.py").launches == []
