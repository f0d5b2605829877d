"""Counted work grows linearly with the input, in every format (issue 34: "a fuzz test per format
that checks time grows linearly with input size").

A generated file (the property tests' strategies, or a launch drawn from their options in the
formats they do not write) is repeated ``N`` and ``8N`` times; linting the longer file may count at
most about 8 times the calls and the scanned bytes of the shorter (``work_meter``). A step that
rescans the file per launch, block or finding grows 64 times. No clock is read.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import ITEMS, STRATEGIES
from work_meter import assert_linear

_FEW = settings(max_examples=4, derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

# how copies of one generated file make a longer file of the same format
_JOIN = {"shell": b"\n", "python": b"\n", "dockerfile": b"\n", "markdown": b"\n", "k8s": b"\n---\n",
         "compose": b"\n---\n", "config": b"\n---\n"}


@pytest.mark.parametrize("kind", sorted(STRATEGIES))
def test_generated_files_repeated_take_linear_work(synth_db_path, kind):
    @_FEW
    @given(doc=STRATEGIES[kind])
    def check(doc):
        unit = doc.data.rstrip(b"\r\n")
        assert_linear(synth_db_path, doc.name, lambda n: _JOIN[kind].join([unit] * n) + b"\n", 3)

    check()


def _launch_words(items) -> list[str]:
    return ["vllm", "serve", "org/model"] + [w.text for it in items for w in it.words()]


# the formats the property tests do not write: one launch (options drawn as theirs are) per copy
_UNITS = {
    "vllm.service": lambda words, n: b"[Unit]\nDescription=vLLM\n\n" + b"".join(
        b"[Service]\nEnvironment=VLLM_USE_V1=1\nExecStart=/opt/vllm/bin/" + " ".join(words).encode() + b"\n\n"
        for _ in range(n)),
    "Makefile": lambda words, n: b"".join(
        f"serve{k}:\n\t{' '.join(words)} \\\n\t    --port 8000\n\n".encode() for k in range(n)),
    "serve.ps1": lambda words, n: b"".join(
        b"$env:VLLM_USE_V1 = \"1\"\n" + " ".join(words).encode() + b" `\n    --port 8000\n" for _ in range(n)),
    "pods.json": lambda words, n: json.dumps({"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"vllm-{k}"},
         "spec": {"containers": [{"name": "vllm", "image": "vllm/vllm-openai:v0.8.5", "args": words[2:]}]}}
        for k in range(n)]}, indent=1).encode(),
    "demo.ipynb": lambda words, n: json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        cell for _ in range(n) for cell in (
            {"cell_type": "markdown", "metadata": {}, "source": ["Start the server:"]},
            {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
             "source": ["!" + " ".join(words) + " &"]})]}, indent=1).encode(),
    # a file no other format claims, read by the plain-text reader of last resort
    "job.slurm.tpl": lambda words, n: b"".join(
        f"node {k}: srun {' '.join(words)} \\\n    --port 8000\n\n".encode() for k in range(n)),
    # Nix: a NixOS configuration's oci-containers sets, a let-bound model
    "vllm.nix": lambda words, n: (b'let model = "org/model"; in {\n  virtualisation.oci-containers.containers = {\n'
                                  + b"".join(f'    vllm{k} = {{\n      image = "vllm/vllm-openai:v0.8.5";\n      cmd = [ "--model" model '
                                             f'{" ".join(json.dumps(w) for w in words[3:])} ];\n    }};\n'.encode()
                                             for k in range(n)) + b"  };\n}\n"),
    # TypeScript: object literals of Pulumi's containers
    "index.ts": lambda words, n: b"const model = 'org/model';\n" + b"".join(
        f"new k8s.core.v1.Pod('p{k}', {{ spec: {{ containers: [{{ name: 'vllm', image: 'vllm/vllm-openai:v0.8.5',\n"
        f"  args: ['--model', model, {', '.join(json.dumps(w) for w in words[3:])}] }}] }} }});\n".encode()
        for k in range(n)),
    # Terraform: heredoc manifests and HCL container blocks
    "main.tf": lambda words, n: b"".join(
        f'resource "kubectl_manifest" "m{k}" {{\n  yaml_body = <<-EOT\n    kind: Pod\n    spec:\n      containers:\n'
        f'        - image: vllm/vllm-openai:v0.8.5\n          args: {json.dumps(words[2:])}\n  EOT\n}}\n'
        f'resource "kubernetes_pod" "p{k}" {{\n  spec {{\n    container {{\n      image = "vllm/vllm-openai:v0.8.5"\n'
        f'      args = {json.dumps(words[2:])}\n    }}\n  }}\n}}\n'.encode() for k in range(n)),
}


@pytest.mark.parametrize("name", sorted(_UNITS))
def test_other_formats_repeated_take_linear_work(synth_db_path, name):
    @_FEW
    @given(items=ITEMS)
    def check(items):
        words = _launch_words(items)
        assert_linear(synth_db_path, name, lambda n: _UNITS[name](words, n), 3)

    check()


def test_every_registered_format_is_measured():
    from vllm_lint.frontends.base import FORMATS, format_by_content, format_by_filename

    written = {"shell", "python", "dockerfile", "markdown", "yaml"}  # k8s, compose, config are YAML
    sample = ["vllm", "serve", "org/model"]
    units = {format_by_filename(name) or format_by_content(_UNITS[name](sample, 1)[:4096], name) for name in _UNITS}
    assert {f.name for f in FORMATS} <= written | units, "a format without a linear-work test"
