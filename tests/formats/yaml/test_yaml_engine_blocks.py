"""Other tools' blocks of vLLM options (:mod:`vllm_lint.frontends.yaml.engine_blocks`): a mapping
of option names under a key that names vLLM's engine or server, one per role of a block of roles,
or beside a vLLM image; each key and value at its own bytes."""

from __future__ import annotations

import pytest

from vllm_lint.frontends.yaml import extract


def _launches(data: bytes, path: str = "bench/config.yaml"):
    return extract(data, path).launches


def _keys(data: bytes, la) -> list[tuple[str, bytes]]:
    return [(k.key, data[k.value_span.start:k.value_span.end]) for k in la.keyed]


def test_a_vllm_config_block_with_the_model_beside_it():
    data = b"""model_name: "Llama 8B served with vLLM"
model_metadata:
  repo_id: org/llama-8b
  vllm_config:
    tensor_parallel_size: 4
    max_model_len: 4096
    swap_space: 4
resources:
  accelerator: A10G:4
"""
    (la,) = _launches(data)
    assert (la.entry, la.style) == ("config-file", "config")
    assert _keys(data, la) == [("tensor_parallel_size", b"4"), ("max_model_len", b"4096"), ("swap_space", b"4")]
    assert la.model == "org/llama-8b"  # (repo_id; the display name is no model)
    assert data[la.keyed[2].key_span.start:la.keyed[2].key_span.end] == b"swap_space"
    assert la.keyed[2].delete_span is not None


def test_a_block_of_roles_is_one_launch_per_role():
    data = b"""model:
  path: org/m
  container: vllm/vllm-openai:v0.10.0
backend:
  type: vllm
  vllm_config:
    prefill:
      tensor-parallel-size: 4
      max-num-seqs: 8
    decode:
      tensor-parallel-size: 8
      gpu-memory-utilization: 0.9
"""
    prefill, decode = _launches(data)
    assert [k.key for k in prefill.keyed] == ["tensor-parallel-size", "max-num-seqs"]
    assert [k.key for k in decode.keyed] == ["tensor-parallel-size", "gpu-memory-utilization"]
    assert data[:decode.span.start].count(b"\n") == 10
    # the recipe's one vLLM image, named elsewhere in the document, is each role's release
    assert [v.version for v in prefill.version_hints] == [v.version for v in decode.version_hints] == ["v0.10.0"]


def test_a_block_beside_a_vllm_image_reads_only_vllms_keys_and_the_images_release():
    data = b"""name: short-short
runtime:
  image: vllm/vllm-openai:v0.10.0
  replicas: 1
  max_model_len: 8192
  gpu_memory_utilization: 0.9
workload:
  input_len: 128
"""
    (la,) = _launches(data)
    assert [k.key for k in la.keyed] == ["max_model_len", "gpu_memory_utilization"]
    assert [(v.version, v.source) for v in la.version_hints] == [("v0.10.0", "image-tag")]


def test_a_charts_camel_case_settings_take_the_release_of_the_image_mapping_beside_them():
    # a chart's values: the image as {repository, tag}, the engine settings camelCase in another block
    data = b"""image:
  repository: vllm/vllm-openai
  tag: v0.10.0
app:
  port: 8000
  model: org/m
  tensorParallelSize: 2
"""
    (la,) = _launches(data, "chart/values.yaml")
    # (only vLLM's own names: a camelCase one is the chart's, which its template maps)
    assert [k.key for k in la.keyed] == ["port", "model"]
    assert [(v.version, v.source, v.image) for v in la.version_hints] == [("v0.10.0", "image-tag", "vllm/vllm-openai")]
    assert data[la.version_hints[0].span.start:la.version_hints[0].span.end] == b"v0.10.0"


@pytest.mark.parametrize("image", [
    # vendor images that hold vLLM though their entrypoint is a shell: the tool runs vLLM in them
    b"nvcr.io/nvidia/vllm@sha256:1de8e6bfdb4c81c1f31a806cc9b13b5c6352714a7cec87f4d24964bcc91159b2",
    b"rocm/vllm:rocm6.4.1_vllm_0.10.0_20250812",
])
def test_a_block_beside_a_vendor_image_that_holds_vllm_is_read(image):
    data = b"runtime:\n  image: " + image + b"\n  dtype: bfloat16\n  max_model_len: 8192\n  max_num_seqs: 128\n"
    (la,) = _launches(data)
    assert [k.key for k in la.keyed] == ["dtype", "max_model_len", "max_num_seqs"]


def test_a_container_key_beside_a_serve_args_block_names_its_image():
    data = b"""model: org/m
container: vllm/vllm-openai:v0.10.0
serve_args:
  --enforce-eager: true
  max-nmu-seqs: 64
"""
    (la,) = _launches(data)
    assert [(k.key, k.key_style) for k in la.keyed] == [("--enforce-eager", "cli"), ("max-nmu-seqs", "dash")]
    assert [v.version for v in la.version_hints] == ["v0.10.0"]


@pytest.mark.parametrize("doc", [
    # another trainer's rollout settings (verl): its own keys, under a key that does not name vLLM
    b"actor_rollout_ref:\n  rollout:\n    name: vllm\n    gpu_memory_utilization: 0.6\n"
    b"    tensor_model_parallel_size: 2\n    free_cache_engine: true\n",
    # a vLLM-named key whose keys are mostly not vLLM's
    b"vllm_config:\n  url: http://localhost:8000\n  api_key: x\n  timeout: 30\n  max_model_len: 4096\n",
    # option-like keys beside no vLLM image, under a neutral key
    b"runtime:\n  image: nginx:1.27\n  max_model_len: 8192\n  tensor_parallel_size: 2\n# vllm\n",
])
def test_blocks_that_are_not_vllms_options_are_no_launch(doc):
    assert _launches(doc) == []


def test_ray_serves_engine_kwargs_stay_its_own_launch():
    data = b"""applications:
- name: llm
  import_path: ray.serve.llm:build_openai_app
  args:
    llm_configs:
    - model_loading_config:
        model_id: org/m
      engine_kwargs:
        tensor_parallel_size: 2
        max_model_len: 4096
"""
    (la,) = _launches(data, "serve.yaml")
    assert la.entry == "ray.serve.llm"


DYNAMO_RECIPE = """\
model:
  path: org/m
  container: vllm/vllm-openai:v0.27.1
dynamo:
  install: true
backend:
  type: vllm
  vllm_config:
    aggregated:
      tensor-parallel-size: 4
      max-model-len: 8192
      gpu-memory-utilization: 0.9
      dyn-tool-call-parser: kimi_k2
      max-nmu-seqs: 8
"""


def test_a_recipe_run_by_dynamo_keeps_dynamos_own_options(run_cli, tmp_path):
    (la,) = _launches(DYNAMO_RECIPE.encode())
    assert la.entry == "dynamo.vllm"
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(DYNAMO_RECIPE)
    r = run_cli("--output-format", "json", "-t", "0.27.1", str(recipe))
    import json

    assert [(d["code"], d.get("option")) for d in json.loads(r.stdout)] == [("VL103", "--max-nmu-seqs")]


def test_a_runtime_block_holding_an_image_that_holds_vllm():
    # NVIDIA's vLLM image does not start the server itself: the tool starts vLLM with the block's
    # options, so the block is read (its own keys left out); the model is the id of `model:`
    data = b"""model:
  id: org/small-instruct
  path: /models/small-instruct
runtime:
  image: nvcr.io/nvidia/vllm@sha256:1de8e6bfdb4c81c1f31a806cc9b13b5c6352714a7cec87f4d24964bcc91159b2
  dtype: bfloat16
  max_model_len: 8192
  max_num_seqs: 128
  container_memory_limit: 64g
"""
    (la,) = _launches(data)
    assert [k for k, _v in _keys(data, la)] == ["dtype", "max_model_len", "max_num_seqs"]
    assert la.model == "org/small-instruct"


def test_a_block_per_inference_engine_reads_the_vllm_one_only():
    # verl's rollout config: other engines' options beside vLLM's; an empty block launches nothing
    data = b"""rollout:
  name: vllm
  engine_kwargs:
    vllm:
      swap_space: 4
    sglang:
      attention_backend: fa3
    trtllm: {}
"""
    (la,) = _launches(data)
    assert [k for k, _v in _keys(data, la)] == ["swap_space"]
    empty = b"rollout:\n  engine_kwargs:\n    vllm: {}\n    sglang: {}\nref:\n  engine_kwargs: {}\n"
    assert _launches(empty) == []
