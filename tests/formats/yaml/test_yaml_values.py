"""A chart's values known by their content (:mod:`vllm_lint.frontends.yaml.values`): a vLLM
image, set beside the arguments or in an enclosing mapping, and arguments under whatever key the
chart names them, as a list, a string or a mapping of option names."""

from __future__ import annotations

import pytest

from vllm_lint.frontends.yaml import extract


def _launches(data: bytes, path: str = "examples/qwen-values.yaml"):
    return extract(data, path).launches


def _words(data: bytes, la) -> list[bytes]:
    return [data[t.span.start:t.span.end] for t in la.tokens]


@pytest.mark.parametrize("key", ["extraArgs", "vllmArgs", "serverArgs", "args", "extra_args", "engineArguments"])
def test_any_arguments_key_beside_a_vllm_image(key):
    data = f"""image:
  repository: vllm/vllm-openai
  tag: v0.10.0
{key}:
  - --max-model-len
  - "4096"
""".encode()
    (la,) = _launches(data)
    assert la.entry == "docker:vllm/vllm-openai:v0.10.0" and la.container.platform in ("helm-values", "kubernetes")
    assert _words(data, la) == [b"--max-model-len", b'"4096"']
    assert [(v.version, v.source) for v in la.version_hints] == [("v0.10.0", "image-tag")]


def test_image_from_an_enclosing_mapping_and_the_model_key():
    data = b"""image:
  repository: vllm/vllm-openai
  tag: v0.10.0
modelName: Qwen/Qwen2.5-7B-Instruct
engine:
  extraArgs: ["--tensor-parallel-size", "2"]
resources:
  limits:
    nvidia.com/gpu: 2
"""
    (la,) = _launches(data)
    assert la.model == "Qwen/Qwen2.5-7B-Instruct"
    assert la.hardware.gpu_count == 2 and la.container.platform == "helm-values"
    assert _words(data, la) == [b'"--tensor-parallel-size"', b'"2"']


def test_a_string_of_arguments():
    data = b"""vllm:
  image: {repository: vllm/vllm-openai, tag: v0.10.0}
  model: {name: facebook/opt-125m}
  serverArgs: "--max-model-len 4096 --enforce-eager"
"""
    (la,) = _launches(data)
    assert la.model == "facebook/opt-125m"
    assert _words(data, la) == [b"--max-model-len", b"4096", b"--enforce-eager"]


def test_a_mapping_of_option_names_is_read_as_keys():
    data = b"""image:
  repository: vllm/vllm-openai
  tag: v0.10.0
extraArgs:
  max-model-len: 4096
  --enforce-eager: true
  gpu_memory_utilization: 0.9
"""
    (la,) = _launches(data)
    assert la.style == "config"
    assert [(k.key, k.key_style, k.value) for k in la.keyed] == [
        ("max-model-len", "dash", 4096), ("--enforce-eager", "cli", True), ("gpu_memory_utilization", "snake", 0.9)]
    assert data[la.keyed[0].key_span.start:la.keyed[0].key_span.end] == b"max-model-len"


@pytest.mark.parametrize("doc", [
    # another image's arguments (a sidecar beside the vLLM values)
    b"image: {repository: vllm/vllm-openai, tag: v0.10.0}\nproxy:\n  image: {repository: envoyproxy/envoy}\n"
    b"  extraArgs: [--log-level, debug]\n",
    # no image at all: whose arguments these are is unknown
    b"extraArgs: [--max-model-len, '4096']\n",
    # a vLLM image, but the key's value is no argument list
    b"image: {repository: vllm/vllm-openai, tag: v0.10.0}\njvmArgs: [Xmx4g]\nextraArgs: {enabled: true}\n",
    # a vLLM benchmark client's options under an arguments key, with its own image
    b"image: example/vllm-bench:v1\nvllmArgs:\n  num-prompts: 200\n  request-rate: 16\n",
])
def test_no_launch(doc):
    assert _launches(doc) == []


def test_a_kubernetes_container_is_still_its_own():
    data = b"""spec:
  containers:
    - name: server
      image: vllm/vllm-openai:v0.10.0
      args: [--max-model-len, "4096"]
"""
    (la,) = _launches(data, "deploy.yaml")
    assert la.container.platform == "kubernetes"


def test_an_image_named_by_name_and_tag():
    data = b"image:\n  name: vllm/vllm-openai\n  tag: v0.10.0\nextraArgs: [--max-model-len, '4096']\n"
    (la,) = _launches(data)
    assert la.entry == "docker:vllm/vllm-openai:v0.10.0"
    assert [(v.version, v.image) for v in la.version_hints] == [("v0.10.0", "vllm/vllm-openai")]


def test_a_charts_own_values_with_empty_arguments_and_a_model_is_the_images_launch():
    # a chart's values.yaml leaves its arguments empty (an override file sets them): the template
    # runs the image with the model alone, a launch whose image, model and GPUs are checked
    data = b"""replicaCount: 1
image:
  repository: vllm/vllm-openai
  tag: v0.10.0
model: Qwen/Qwen2.5-7B-Instruct
extraArgs: []
resources:
  limits:
    nvidia.com/gpu: 1
"""
    (la,) = _launches(data, "charts/vllm/values.yaml")
    assert la.entry == "docker:vllm/vllm-openai:v0.10.0" and la.tokens == []
    assert la.model == "Qwen/Qwen2.5-7B-Instruct" and la.hardware.gpu_count == 1
    assert [(v.version, v.source) for v in la.version_hints] == [("v0.10.0", "image-tag")]


@pytest.mark.parametrize("empty", ["[]", "{}", '""', ""])
def test_empty_arguments_of_each_spelling_with_the_model_in_a_component(empty):
    data = f"""image:
  repository: vllm/vllm-openai
  tag: v0.10.0
server:
  model:
    name: Qwen/Qwen2.5-7B-Instruct
  extraArgs: {empty}
""".encode()
    (la,) = _launches(data)
    assert la.model == "Qwen/Qwen2.5-7B-Instruct" and la.tokens == []


@pytest.mark.parametrize("values", [
    # no model: a chart of images (an operator's), not a launch
    "image:\n  repository: vllm/vllm-openai\n  tag: v0.10.0\nextraArgs: []\n",
    # another program's image
    "image:\n  repository: nginx\n  tag: '1.27'\nmodel: Qwen/Qwen2.5-7B-Instruct\nextraArgs: []\n",
    # no arguments key at all: nothing says the chart runs the image's entrypoint with the model
    "image:\n  repository: vllm/vllm-openai\n  tag: v0.10.0\nmodel: Qwen/Qwen2.5-7B-Instruct\n",
])
def test_empty_arguments_without_a_model_or_a_vllm_image_are_no_launch(values):
    assert _launches(values.encode()) == []


def test_a_model_reference_in_a_configuration_block_beside_empty_arguments():
    data = b"""image:
  registry: docker.io
  repository: vllm/vllm-openai
  tag: v0.10.0
configuration:
  modelReference: ibm-granite/granite-3.3-2b-instruct
  extraArgs: []
"""
    (la,) = _launches(data)
    assert la.model == "ibm-granite/granite-3.3-2b-instruct"


def test_a_component_name_is_no_model():
    data = b"image:\n  repository: vllm/vllm-openai\n  tag: v0.10.0\nserver:\n  name: vllm\n  extraArgs: []\n"
    assert _launches(data) == []
