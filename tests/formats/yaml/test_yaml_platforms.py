"""The container model (``vllm_lint.container``): the YAML front-end reads each platform's
container at the keys its row of ``PLATFORMS`` names, and fills the launch from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from vllm_lint import container as platforms
from vllm_lint.container import Platform
from vllm_lint.frontends.yaml import extract

HERE = Path(__file__).resolve().parent


def _only(data: bytes):
    (la,) = extract(data, "config.yaml").launches
    return la


def test_a_truss_config_is_one_container():
    data = (HERE / "truss_config.yaml").read_bytes()
    la = _only(data)
    c = la.container
    assert c.platform == "truss"
    assert c.image == "vllm/vllm-openai:v0.10.0" and data[c.image_span.start:c.image_span.end] == c.image.encode()
    assert c.command[:2] == ["sh", "-c"] and c.args == [] and c.args_span is None
    assert data[c.command_span.start:c.command_span.end].startswith(b'sh -c "HF_TOKEN=')
    assert data[c.span.start:c.span.end].startswith(b"start_command:")  # the mapping holding the command
    assert [(e.name, e.value) for e in c.env] == [("VLLM_LOGGING_LEVEL", "INFO")]
    assert (c.hardware.gpu_product, c.hardware.gpu_count, c.hardware.source) == ("H100", 2, "resources.accelerator")
    assert [(h.version, h.source) for h in c.version_hints] == [("v0.10.0", "image-tag")]
    # the launch (from the start command's script) takes the container's image, variables, GPUs and release
    assert la.entry == "vllm serve" and la.image == c.image and la.hardware.gpu_count == 2
    assert [e.name for e in la.env] == ["VLLM_LOGGING_LEVEL", "HF_TOKEN"]
    assert la.version_hints[0].version == "v0.10.0"


def test_a_truss_accelerator_without_a_count_is_one_gpu():
    la = _only((HERE / "truss_clean.yaml").read_bytes())
    assert la.container.platform == "truss" and la.tokens[0].text == "facebook/opt-125m"
    assert (la.hardware.gpu_product, la.hardware.gpu_count) == ("L4", 1)


@pytest.mark.parametrize("spec", ['"<gpu>"', '"${GPU}"', '"{{ gpu }}"', '""'])
def test_a_placeholder_accelerator_states_no_gpus(spec):
    la = _only(b"base_image:\n  image: vllm/vllm-openai:v0.10.0\ndocker_server:\n  start_command: vllm serve m\n"
               b"resources:\n  accelerator: " + spec.encode() + b"\n")
    assert la.container.platform == "truss" and la.hardware.gpu_count is None


def test_a_templated_accelerator_with_a_default_states_its_gpus():
    la = _only(b"base_image:\n  image: vllm/vllm-openai:v0.10.0\ndocker_server:\n  start_command: vllm serve m\n"
               b"resources:\n  accelerator: '{{ .Values.gpu | default \"H100:2\" }}'\n")
    assert (la.hardware.gpu_product, la.hardware.gpu_count) == ("H100", 2)


def test_a_truss_config_that_starts_something_else_holds_no_launch():
    data = b"""base_image:
  image: vllm/vllm-openai:v0.10.0
docker_server:
  start_command: python3 -m other_server --port 8000
"""
    ex = extract(data, "config.yaml")
    assert ex.launches == [] and [h.version for h in ex.version_hints] == ["v0.10.0"]  # the idle image's tag


def test_kubernetes_and_compose_launches_carry_their_container():
    k8s = _only(b"""apiVersion: v1
kind: Pod
spec:
  containers:
    - name: server
      image: vllm/vllm-openai:v0.8.5
      args: ["--model", "m"]
      env: [{name: VLLM_USE_V1, value: "1"}]
      resources: {limits: {nvidia.com/gpu: 4}}
""")
    assert (k8s.container.platform, k8s.container.name, k8s.container.args) == ("kubernetes", "server", ["--model", "m"])
    assert k8s.container.hardware.gpu_count == 4 and [e.name for e in k8s.container.env] == ["VLLM_USE_V1"]
    compose = _only(b"""services:
  vllm:
    image: vllm/vllm-openai:${TAG:-v0.8.5}
    command: --model m
""")
    assert (compose.container.platform, compose.container.name) == ("compose", None)
    assert compose.container.run_image == "vllm/vllm-openai:v0.8.5" == compose.image


def test_a_new_platform_is_one_row(monkeypatch):
    """A made-up platform whose file has `server: {image, run, vars}` and `gpus: N`: one row, no code."""
    row = Platform("madeup", "root", marker="server", image=("server", "image"), command=("server", "run"),
                   args=None, env=("server", "vars"), env_form="map", accelerator=("gpus",))
    monkeypatch.setattr(platforms, "PLATFORMS", platforms.PLATFORMS + (row,))
    la = _only(b"""server:
  image: vllm/vllm-openai:v0.8.5
  run: vllm serve m --tensor-parallel-size 2
  vars: {VLLM_USE_V1: "0"}
gpus: "2"
""")
    c = la.container
    assert (c.platform, c.image, c.hardware.gpu_count, [e.name for e in c.env]) == ("madeup", "vllm/vllm-openai:v0.8.5",
                                                                                     2, ["VLLM_USE_V1"])
    assert la.entry == "vllm serve" and [t.text for t in la.tokens] == ["m", "--tensor-parallel-size", "2"]
    assert la.version_hints[0].version == "v0.8.5"


@pytest.mark.parametrize("row", platforms.PLATFORMS, ids=lambda r: r.name)
def test_every_row_is_complete(row):
    assert row.found in ("containers", "services", "root", "values", "task")
    assert (row.found in ("root", "values", "task")) == (row.marker is not None)
    assert row.string_command in ("words", "shell")
    assert row.image and row.command and row.env and row.env_form in ("list", "map") and row.source
    assert set(row.gpus) <= {"resources", "devices"}


def test_the_walks_rows_are_one_each():
    """The YAML walk reads containers lists and compose services by one row each; other rows are
    documents known by a root key, or mappings by a key of their own (a chart's values)."""
    found = [p.found for p in platforms.PLATFORMS]
    assert found.count("containers") == 1 and found.count("services") == 1
    assert len({p.name for p in platforms.PLATFORMS}) == len(platforms.PLATFORMS)


def test_production_stack_and_llminferenceservice_fill_a_container():
    ps = _only(b"""servingEngineSpec:
  modelSpec:
    - name: opt
      repository: vllm/vllm-openai
      tag: v0.8.5
      modelURL: facebook/opt-125m
      requestGPU: 2
""")
    assert (ps.container.platform, ps.container.name, ps.container.image) == ("production-stack", "opt",
                                                                              "vllm/vllm-openai:v0.8.5")
    assert ps.image == ps.container.image and ps.hardware is ps.container.hardware
    assert ps.container.partial_layout is None is ps.partial_layout
    ray = _only(b"""servingEngineSpec:
  modelSpec:
    - name: opt
      repository: vllm/vllm-openai
      tag: v0.8.5
      modelURL: facebook/opt-125m
      raySpec: {headNode: {requestGPU: 1}}
""")
    assert ray.container.partial_layout.startswith("production-stack starts this model on a Ray cluster")
    assert ray.partial_layout == ray.container.partial_layout
    svc = _only(b"""apiVersion: serving.kserve.io/v1alpha1
kind: LLMInferenceService
metadata: {name: opt}
spec:
  model: {uri: "hf://facebook/opt-125m"}
  template:
    containers:
      - name: main
        image: vllm/vllm-openai:v0.8.5
        args: ["--max-model-len", "2048"]
        resources: {limits: {nvidia.com/gpu: 1}}
""")
    c = svc.container
    assert (c.platform, c.name, c.args, c.hardware.gpu_count) == ("kserve", "main", ["--max-model-len", "2048"], 1)
    assert svc.image == c.image == "vllm/vllm-openai:v0.8.5"
