"""YAML front-end: smaller shapes (CronJob, initContainers, llm-d values, compose variants)."""

from __future__ import annotations

import yaml as pyyaml

from vllm_lint.frontends import yaml as Y
from span_invariants import apply, check_spans


def _ex(src: str):
    data = src.encode()
    ex = Y.extract(data, "t.yaml")
    check_spans(data, ex)
    return data, ex


def texts(la):
    return [t.text for t in la.tokens]


def test_cronjob_and_init_container():
    data, ex = _ex("""\
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly-eval}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          initContainers:
            - name: warm
              image: busybox
              command: ["sh", "-c", "echo warm"]
          containers:
            - name: eval
              image: vllm/vllm-openai:v0.10.1
              command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]
              args: [--model, facebook/opt-125m, --swap-space, "2"]
              resources:
                requests: {nvidia.com/gpu: 1}
          restartPolicy: Never
""")
    (la,) = ex.launches
    assert la.entry == "openai.api_server" and la.context["kind"] == "CronJob"
    assert la.hardware.gpu_count == 1
    new = apply(data, la.delete_tokens(la.tokens[2:]))
    c = pyyaml.safe_load(new)["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"][0]
    assert c["args"] == ["--model", "facebook/opt-125m"]


def test_llm_d_values_model_command():
    data, ex = _ex("""\
modelArtifacts:
  uri: hf://Qwen/Qwen3-0.6B
decode:
  replicas: 2
  containers:
  - name: vllm
    image: ghcr.io/llm-d/llm-d:v0.2.0
    modelCommand: vllmServe
    args:
      - "--enforce-eager"
      - "--kv-transfer-config"
      - '{"kv_connector":"NixlConnector", "kv_role":"kv_both"}'
    resources:
      limits:
        nvidia.com/gpu: "1"
""")
    (la,) = ex.launches
    assert la.entry == "llm-d:vllmServe"
    assert texts(la)[2] == '{"kv_connector":"NixlConnector", "kv_role":"kv_both"}'
    assert la.tokens[2].text_span is not None


def test_compose_entrypoint_bash_c_and_gpus():
    data, ex = _ex("""\
services:
  llm:
    image: vllm/vllm-openai:latest
    entrypoint: ["/bin/bash", "-c"]
    command:
      - |
        pip install -q flashinfer
        vllm serve google/gemma-2-9b-it --max-model-len 8192 --swap-space 8
    gpus: all
    environment:
      VLLM_ATTENTION_BACKEND: FLASHINFER
""")
    (la,) = ex.launches
    assert la.entry == "vllm serve" and la.context["shell"]
    assert [v.version for v in la.version_hints] == ["latest"]
    assert any(e.name == "VLLM_ATTENTION_BACKEND" and e.value == "FLASHINFER" for e in la.env)
    i = texts(la).index("--swap-space")
    new = apply(data, la.delete_tokens(la.tokens[i : i + 2]))
    cmd = pyyaml.safe_load(new)["services"]["llm"]["command"][0]
    assert cmd.endswith("--max-model-len 8192\n")


def test_compose_entrypoint_list_with_vllm():
    data, ex = _ex("""\
services:
  llm:
    image: vllm/vllm-openai:v0.9.0
    entrypoint: ["vllm", "serve"]
    command: ["Qwen/Qwen3-8B", "--enable-reasoning", "--reasoning-parser", "deepseek_r1"]
""")
    (la,) = ex.launches
    assert la.entry == "vllm serve"
    assert texts(la) == ["Qwen/Qwen3-8B", "--enable-reasoning", "--reasoning-parser", "deepseek_r1"]


def test_non_vllm_container_args_are_ignored():
    _data, ex = _ex("""\
kind: Pod
spec:
  containers:
  - name: proxy
    image: envoyproxy/envoy:v1.30
    args: ["--config-path", "/etc/envoy/vllm.yaml"]
""")
    assert ex.launches == []


def test_delete_every_item_of_flow_list():
    data, ex = _ex("image: vllm/vllm-openai:v0.8.0\nargs: [--swap-space, '4']\n")
    (la,) = ex.launches
    new = apply(data, la.delete_tokens(la.tokens))
    assert pyyaml.safe_load(new)["args"] == []


def test_template_tag_default_is_not_a_version():
    data, ex = _ex('image: "vllm/vllm-openai:{{ .Values.tag }}"\nargs: ["--model", "m"]\n')
    (la,) = ex.launches
    assert la.version_hints == [] and len(ex.notes) == 1
