"""YAML front-end: real-looking manifests of each supported kind."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml as pyyaml

from vllm_lint.frontends import yaml as Y
from vllm_lint.launch import Edit
from vllm_lint.wrapper_options import own_options
from span_invariants import apply, check_spans

FIX = Path(__file__).parent / "fixtures"


def load(name: str, **kw):
    data = (FIX / name).read_bytes()
    ex = Y.extract(data, name, **kw)
    check_spans(data, ex)
    return data, ex


def texts(la):
    return [t.text for t in la.tokens]


def test_every_fixture_keeps_span_invariants():
    for p in sorted(FIX.iterdir()):
        data = p.read_bytes()
        ex = Y.extract(data, p.name, explicit="config" in p.name)
        check_spans(data, ex)
        assert ex.launches, p.name


def test_deployment_args_list():
    data, ex = load("k8s_deployment.yaml")
    (la,) = ex.launches
    assert la.entry == "docker:vllm/vllm-openai:v0.8.5"
    assert la.style == "argv"
    assert "--swap-space" in texts(la) and "--num-scheduler-steps=8" in texts(la)
    assert [v.version for v in la.version_hints] == ["v0.8.5"]
    vh = la.version_hints[0]
    assert data[vh.span.start : vh.span.end] == b"v0.8.5"
    assert la.hardware.gpu_count == 1
    assert la.hardware.gpu_product == "NVIDIA-A100-SXM4-80GB"
    alias = la.tokens[-1]  # $(MODEL_ALIAS): the container's env says it (values through variables)
    assert (alias.text, alias.opaque, alias.text_span) == ("llama-8b", False, None)
    (name, where), = alias.origin
    assert name == "MODEL_ALIAS" and data[where.start:where.end] == b'"llama-8b"'
    env = {e.name: e for e in la.env}
    assert env["HUGGING_FACE_HUB_TOKEN"].value_opaque
    assert env["VLLM_ATTENTION_BACKEND"].value == "FLASHINFER"
    assert env["MODEL_ALIAS"].value == "llama-8b"


def test_deployment_delete_tokens_removes_list_lines():
    data, ex = load("k8s_deployment.yaml")
    (la,) = ex.launches
    i = texts(la).index("--swap-space")
    j = texts(la).index("--num-scheduler-steps=8")
    edits = la.delete_tokens([la.tokens[i], la.tokens[i + 1], la.tokens[j]])
    new = apply(data, edits)
    assert b"--swap-space" not in new and b"num-scheduler-steps" not in new
    assert b"GiB of CPU swap" not in new  # the item's trailing comment went with it
    args = pyyaml.safe_load_all(new)
    dep = next(args)
    c = dep["spec"]["template"]["spec"]["containers"][0]
    assert c["args"][:4] == ["--model", "meta-llama/Llama-3.1-8B-Instruct",
                             "--tensor-parallel-size", "1"]
    assert len(new.splitlines()) == len(data.splitlines()) - 3


def test_env_delete_span_removes_item():
    data, ex = load("k8s_deployment.yaml")
    env = {e.name: e for e in ex.launches[0].env}
    new = apply(data, [pyyaml_edit(env["VLLM_ATTENTION_BACKEND"].delete_span)])
    doc = next(pyyaml.safe_load_all(new))
    names = [e["name"] for e in doc["spec"]["template"]["spec"]["containers"][0]["env"]]
    assert names == ["HUGGING_FACE_HUB_TOKEN", "MODEL_ALIAS"]


def pyyaml_edit(span):
    from vllm_lint.launch import Edit

    return Edit(span, "")


def test_compose_command_string():
    data, ex = load("compose.yaml")
    (la,) = ex.launches
    assert la.entry == "docker:vllm/vllm-openai:v0.8.5"
    assert texts(la)[:6] == ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "16384",
                             "--swap-space", "8"]
    assert "qwen 7b" in texts(la)
    assert la.version_hints[0].version == "v0.8.5"
    assert la.hardware.gpu_count == 2
    env = {e.name: e for e in la.env}
    assert env["VLLM_USE_V1"].value == "0"
    assert env["HF_TOKEN"].value_opaque
    i = texts(la).index("--swap-space")
    new = apply(data, la.delete_tokens(la.tokens[i : i + 2]))
    svc = pyyaml.safe_load(new)["services"]["vllm"]
    assert "--swap-space" not in svc["command"]
    assert svc["command"].startswith("--model Qwen/Qwen2.5-7B-Instruct --max-model-len 16384 --served")


def test_production_stack_values():
    data, ex = load("production_stack_values.yaml")
    (cfg,) = ex.launches  # vllmConfig and extraArgs: one command line, as the chart renders it
    extra = cfg
    assert cfg.style == "config" and cfg.entry == "production-stack"
    keys = {k.key: k for k in cfg.keyed}
    assert keys["tensorParallelSize"].value == 2
    assert keys["tensorParallelSize"].key_style == "camel"
    assert cfg.option_for_key["tensorParallelSize"] == "--tensor-parallel-size"
    assert cfg.option_for_key["enableLoRA"] == "--enable-lora"
    assert "swapSpace" not in keys and cfg.context["ignored_keys"] == ["swapSpace"]
    assert "v0" not in keys and "extraArgs" not in keys
    assert any(e.name == "VLLM_USE_V1" and e.value == "0" for e in cfg.env)
    assert cfg.model == "meta-llama/Llama-3.1-8B-Instruct"
    assert cfg.hardware.gpu_count == 2
    assert cfg.version_hints[0].version == "v0.8.5"
    assert texts(extra) == ["--disable-log-requests", "--num-scheduler-steps", "8"]
    # deleting from a flow list keeps it valid
    new = apply(data, extra.delete_tokens(extra.tokens[1:]))
    spec = pyyaml.safe_load(new)["servingEngineSpec"]["modelSpec"][0]
    assert spec["vllmConfig"]["extraArgs"] == ["--disable-log-requests"]
    new = apply(data, extra.delete_tokens(extra.tokens[:1]))
    spec = pyyaml.safe_load(new)["servingEngineSpec"]["modelSpec"][0]
    assert spec["vllmConfig"]["extraArgs"] == ["--num-scheduler-steps", "8"]
    # keyed delete_span cuts one line
    new = apply(data, [pyyaml_edit(keys["gpuMemoryUtilization"].delete_span)])
    spec = pyyaml.safe_load(new)["servingEngineSpec"]["modelSpec"][0]
    assert "gpuMemoryUtilization" not in spec["vllmConfig"]
    assert spec["vllmConfig"]["swapSpace"] == 8


def test_skypilot_task():
    data, ex = load("skypilot.yaml")
    (la,) = ex.launches
    assert la.entry == "vllm serve"
    assert la.hardware.gpu_product == "H100" and la.hardware.gpu_count == 8
    assert la.hardware.nodes == 1
    assert "--swap-space" in texts(la)
    assert any(e.name == "VLLM_USE_V1" for e in la.env)
    assert any(v.version == "0.8.5" for v in ex.version_hints)
    i = texts(la).index("--swap-space")
    new = apply(data, la.delete_tokens(la.tokens[i : i + 2]))
    run = pyyaml.safe_load(new)["run"]
    assert "--swap-space" not in run and "--tensor-parallel-size 8" in run


def test_github_workflow():
    data, ex = load("github_workflow.yml")
    (la,) = ex.launches
    assert la.entry == "vllm serve"
    assert "--num-scheduler-steps" in texts(la)
    tp = la.tokens[texts(la).index("--tensor-parallel-size") + 1]
    assert tp.opaque and tp.text == "${{ matrix.tp }}"
    env = {e.name for e in la.env}
    assert {"VLLM_LOGGING_LEVEL", "VLLM_USE_V1"} <= env
    assert len(ex.notes) == 1 and ex.notes[0].code == "VL002"
    assert any(v.version == "0.9.2" for v in ex.version_hints)


def test_gitlab_job_image_version():
    data, ex = load("gitlab-ci.yml")
    (la,) = ex.launches
    assert "--num-scheduler-steps" in texts(la)
    assert [v.version for v in la.version_hints] == ["v0.8.5"]


def test_sh_c_double_quoted_literal_and_folded():
    data, ex = load("sh_c_scripts.yaml")
    dq, block, folded = ex.launches
    assert dq.container.name == "dq" and dq.tokens[0].text == "mistralai/Mistral-7B-Instruct-v0.3"
    assert dq.tokens[0].text_span is not None  # inside \"...\" escapes
    assert "--max-model-len" in texts(dq)  # after a \t escape
    i = texts(dq).index("--swap-space")
    new = apply(data, dq.delete_tokens(dq.tokens[i : i + 2]))
    pod = pyyaml.safe_load(new)
    assert pod["spec"]["containers"][0]["args"][0] == (
        'pip install -q hf_transfer && exec vllm serve "mistralai/Mistral-7B-Instruct-v0.3"'
        " --tokenizer-mode mistral\t--max-model-len 8192"
    )
    assert block.entry == "openai.api_server"
    assert block.hardware.gpu_count == 4
    assert any(e.name == "MODEL" for e in block.env)
    j = texts(block).index("--num-scheduler-steps=8")
    new = apply(data, block.delete_tokens([block.tokens[j]]))
    script = pyyaml.safe_load(new)["spec"]["containers"][1]["command"][2]
    assert "num-scheduler-steps" not in script and "--port 8000" in script
    assert "--swap-space 4 \\\n" in script
    # folded scalars: each word keeps its own line and column, so a fix within a line applies
    assert "--swap-space" in texts(folded)
    sw = folded.tokens[texts(folded).index("--swap-space")]
    assert data[sw.text_span.start:sw.text_span.end] == b"--swap-space"


def test_kserve_runtimes():
    data, ex = load("kserve.yaml")
    hf, rt, llmisvc = ex.launches
    assert hf.entry == "kserve:huggingfaceserver" and "--max-model-len=8192" in texts(hf)
    assert "--model_name" in own_options(hf.entry)
    assert hf.hardware.gpu_count == 1
    assert rt.entry == "openai.api_server"
    name = [t for t in rt.tokens if t.text.startswith("--served-model-name")][0]
    assert name.opaque and name.text == "--served-model-name={{.Name}}"
    # one launch: the template's vllm serve with VLLM_ADDITIONAL_ARGS's words
    assert llmisvc.entry == "kserve:LLMInferenceService" and llmisvc.style == "config"
    assert not any(e.name == "VLLM_ADDITIONAL_ARGS" for e in llmisvc.env)
    assert llmisvc.model == "Qwen/Qwen3-8B" and llmisvc.hardware.gpu_count == 1
    assert texts(llmisvc) == ["--max-model-len=16384", "--gpu-memory-utilization", "0.92",
                              "--disable-log-requests"]
    new = apply(data, llmisvc.delete_tokens(llmisvc.tokens[1:3]))
    docs = list(pyyaml.safe_load_all(new))
    val = docs[2]["spec"]["template"]["containers"][0]["env"][0]["value"]
    assert val == "--max-model-len=16384 --disable-log-requests"
    assert len(ex.notes) == 1


@pytest.mark.parametrize("backend,launches", [
    (["--backend=huggingface"], 0), (["--backend", "huggingface"], 0), (["--backend=vllm"], 1),
    (["--backend=auto"], 1), ([], 1), (["--backend=huggingface", "--backend=vllm"], 1),
], ids=["huggingface", "huggingface-two-words", "vllm", "auto", "none", "last-wins"])
def test_kserve_huggingface_backend_starts_no_vllm(backend, launches):
    """`--backend huggingface` loads the model with transformers: the server never starts vLLM."""
    args = "".join(f"\n        - {w}" for w in ["--model_name=m", "--model_id=org/m", *backend, "--max-model-len=2048"])
    src = ("apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata: {name: m}\nspec:\n"
           "  predictor:\n    model:\n      modelFormat: {name: huggingface}\n      args:" + args + "\n")
    ex = Y.extract(src.encode(), "isvc.yaml")
    assert [la.entry for la in ex.launches] == ["kserve:huggingfaceserver"] * launches


def test_leaderworkerset_nodes():
    data, ex = load("lws.yaml")
    (la,) = ex.launches
    assert la.hardware.nodes == 2 and la.hardware.gpu_count == 8
    assert "--pipeline-parallel-size" in texts(la)


def test_rayservice_serve_config():
    data, ex = load("rayservice.yaml")
    (la,) = ex.launches
    assert la.style == "kwargs" and la.entry == "ray.serve.llm"
    keys = {k.key: k for k in la.keyed}
    assert keys["swap_space"].value == 4
    assert la.hardware.gpu_product == "L4"
    assert la.model == "Qwen/Qwen2.5-0.5B-Instruct"
    new = apply(data, [pyyaml_edit(keys["swap_space"].delete_span)])
    inner = pyyaml.safe_load(pyyaml.safe_load(new)["spec"]["serveConfigV2"])
    kw = inner["applications"][0]["args"]["llm_configs"][0]["engine_kwargs"]
    assert kw == {"tensor_parallel_size": 2, "max_model_len": 4096}


def test_a_document_whose_only_vllm_is_a_template_default_is_read():
    """The image names vLLM only inside ``{{ ... | default "vllm/..." }}``: the document is still
    read (its mention is in the bytes as written, not in the filled ones), at the default's release."""
    data = (b"apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
            b"        - name: server\n"
            b"          image: {{ .Values.image | default \"vllm/vllm-openai:v0.8.5\" }}\n"
            b"          args: [\"--model\", \"m\", \"--swap-space\", \"4\"]\n")
    (la,) = Y.extract(data, "deploy.yaml").launches
    assert "--swap-space" in texts(la)
    assert [(v.version, v.source) for v in la.version_hints] == [("v0.8.5", "helm-default")]
    # without the default, nothing says this container runs vLLM
    assert Y.extract(data.replace(b' | default \"vllm/vllm-openai:v0.8.5\"', b""), "deploy.yaml").launches == []


def test_kubeai_model():
    data, ex = load("kubeai_model.yaml")
    (la,) = ex.launches
    assert la.entry == "kubeai:VLLM"
    assert la.model == "hf://neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8"
    assert la.hardware.gpu_product == "nvidia-gpu-l4" and la.hardware.gpu_count == 1


def test_helm_template_is_read_with_opaque_values():
    data, ex = load("helm_template.yaml")
    (la,) = ex.launches
    assert la.entry == "vllm serve"
    assert "--swap-space" in texts(la)
    assert la.tokens[0].opaque and la.tokens[0].text == "{{ .Values.vllm.model | quote }}"
    assert la.tokens[-1].opaque
    # image: "vllm/vllm-openai:{{ .Values.vllm.tag | default "v0.8.5" }}" renders v0.8.5 when unset
    assert [(v.version, v.source) for v in la.version_hints] == [("v0.8.5", "helm-default")]
    assert len(ex.notes) == 1 and ex.notes[0].code == "VL002"
    i = texts(la).index("--swap-space")
    new = apply(data, la.delete_tokens(la.tokens[i : i + 2]))
    assert b"--swap-space" not in new and b'            - "4"\n' not in new
    assert b"{{- range .Values.vllm.extraArgs }}" in new


def test_unparseable_template_gives_a_note_not_an_error():
    data = b"spec:\n  args:\n{{ toYaml .Values.args | indent 4 }}\n  - {{ if x }}a: b{{ end }}\n   bad: [\n"
    ex = Y.extract(data, "t.yaml")
    assert ex.launches == [] and len(ex.notes) == 1


def test_vllm_chart_values():
    data, ex = load("vllm_chart_values.yaml")
    (la,) = ex.launches
    assert la.entry == "vllm serve" and la.tokens[0].text == "/data/"
    assert la.version_hints[0].version == "v0.7.3"
    assert data[la.version_hints[0].span.start : la.version_hints[0].span.end] == b'"v0.7.3"'
    assert la.hardware.gpu_count == 1
    i = texts(la).index("--num-scheduler-steps")
    new = apply(data, la.delete_tokens(la.tokens[i : i + 2]))
    cmd = pyyaml.safe_load(new)["image"]["command"]
    assert "--num-scheduler-steps" not in cmd and "4" not in cmd and cmd[-1] == "8000"
    new = apply(data, la.delete_tokens(la.tokens[-2:]))
    assert pyyaml.safe_load(new)["image"]["command"][-1] == "0.0.0.0"


def test_config_file():
    data = (FIX / "vllm_config.yaml").read_bytes()
    ex = Y.extract_config_file(data, "vllm_config.yaml")
    check_spans(data, ex)
    (la,) = ex.launches
    assert la.entry == "config-file" and la.style == "config"
    keys = {k.key: k for k in la.keyed}
    assert keys["tensor-parallel-size"].key_style == "dash"
    assert keys["max_num_seqs"].key_style == "snake"
    assert keys["enable-prefix-caching"].value is False
    assert keys["compilation-config"].value == {"level": 3, "cudagraph_capture_sizes": [1, 2, 4, 8]}
    assert keys["served-model-name"].value == ["llama-70b", "llama"]
    new = apply(data, [pyyaml_edit(keys["compilation-config"].delete_span),
                       pyyaml_edit(keys["swap-space"].delete_span)])
    assert pyyaml.safe_load(new) == {
        "model": "meta-llama/Llama-3.1-70B-Instruct", "tensor-parallel-size": 4,
        "max_num_seqs": 256, "gpu-memory-utilization": 0.92, "enable-prefix-caching": False,
        "served-model-name": ["llama-70b", "llama"], "port": 8000,
    }
    # recognised by shape when passed explicitly; not otherwise
    assert Y.extract(data, "vllm_config.yaml", explicit=True).launches[0].entry == "config-file"
    assert Y.extract(data, "vllm_config.yaml").launches == []
    assert Y.extract(b"name: x\nreplicas: 2\n", "v.yaml", explicit=True).launches == []


def test_dstack_multiline_plain_words_keep_their_lines():
    data, ex = load("dstack.yml")
    (la,) = ex.launches
    assert la.hardware.gpu_count == 2
    assert la.version_hints[0].version == "v0.8.5"
    assert "--tensor-parallel-size" in texts(la)
    # each word of the folded plain scalar is spelled where it is written, on its own line
    assert all(data[t.text_span.start:t.text_span.end] == t.text.encode() for t in la.tokens
               if not t.opaque and not t.origin)  # (a value read through a variable is not spelled here)
    tp = next(t for t in la.tokens if t.text == "--tensor-parallel-size")
    assert data[:tp.text_span.start].count(b"\n") == 10


def test_prefilter():
    assert Y.might_contain_launch(b"image: vllm/vllm-openai")
    assert Y.might_contain_launch(b"engine: VLLM")
    assert not Y.might_contain_launch(b"kind: Service\n")


@pytest.mark.parametrize("fmt", ["plain", "single", "double"])
def test_non_ascii_offsets(fmt):
    q = {"plain": "{}", "single": "'{}'", "double": '"{}"'}[fmt]
    data = (
        "# modèle: ünïcödé 🚀\n"
        "kind: Pod\nspec:\n  containers:\n  - name: é\n    image: vllm/vllm-openai:v0.9.0\n"
        "    args:\n    - " + q.format("--served-model-name") + "\n    - " + q.format("llamé-🚀") + "\n"
    ).encode()
    ex = Y.extract(data, "p.yaml")
    check_spans(data, ex)
    assert [t.text for t in ex.launches[0].tokens] == ["--served-model-name", "llamé-🚀"]
    assert all(t.text_span is not None for t in ex.launches[0].tokens)


def test_crlf_and_bom():
    src = (FIX / "k8s_deployment.yaml").read_bytes().replace(b"\n", b"\r\n")
    data = b"\xef\xbb\xbf" + src
    ex = Y.extract(data, "d.yaml")
    check_spans(data, ex)
    la = ex.launches[0]
    i = [t.text for t in la.tokens].index("--swap-space")
    new = apply(data, la.delete_tokens(la.tokens[i : i + 2]))
    assert b"--swap-space" not in new and b"\r\n" in new and b"\n\n" not in new.replace(b"\r", b"")


def test_production_stack_literal_tokens_are_launch_env():
    """A string `hf_token` / `vllmApiKey` becomes the HF_TOKEN / VLLM_API_KEY the chart sets (so
    VL501 sees a token committed in the values file); a secret reference does not."""
    data = (b"servingEngineSpec:\n  vllmApiKey: sk-live-0123456789\n  modelSpec:\n"
            b"  - name: a\n    repository: vllm/vllm-openai\n    tag: v0.8.5\n    modelURL: m\n"
            b"    hf_token: hf_1234567890abcdefghij\n"
            b"  - name: b\n    repository: vllm/vllm-openai\n    tag: v0.8.5\n    modelURL: m\n"
            b"    hf_token:\n      secretName: hf\n      secretKey: token\n")
    ex = Y.extract(data, "values.yaml")
    check_spans(data, ex)
    a, b = [la for la in ex.launches if la.entry == "production-stack"]
    got = {e.name: data[e.value_text_span.start:e.value_text_span.end] for e in a.env}
    assert got == {"HF_TOKEN": b"hf_1234567890abcdefghij", "VLLM_API_KEY": b"sk-live-0123456789"}
    assert [e.name for e in b.env] == ["VLLM_API_KEY"]


def test_gitlab_variables_global_and_job_attach_to_script_launches():
    data = b"""variables:
  VLLM_USE_V1: "1"
  VLLM_ATTENTION_BACKEND:
    value: FLASHINFER
    description: attention backend
default:
  image:
    name: vllm/vllm-openai:v0.9.2
    entrypoint: [""]
smoke:
  stage: test
  variables:
    HF_TOKEN: hf_abcdefghijklmnopqrstuvwxyz0123
  script:
    - vllm serve m --max-model-len 1024 &
other:
  stage: test
  image: vllm/vllm-openai:v0.8.5
  before_script:
    - vllm serve m2 --swap-space 1 &
"""
    ex = Y.extract(data, ".gitlab-ci.yml")
    check_spans(data, ex)
    by_model = {la.tokens[0].text: la for la in ex.launches}
    smoke, other = by_model["m"], by_model["m2"]
    assert [e.name for e in smoke.env] == ["VLLM_USE_V1", "VLLM_ATTENTION_BACKEND", "HF_TOKEN"]
    assert [e.name for e in other.env] == ["VLLM_USE_V1", "VLLM_ATTENTION_BACKEND"]
    backend = smoke.env[1]
    assert backend.value == "FLASHINFER" and backend.delete_span is None  # {value:, description:}
    assert data[backend.value_text_span.start:backend.value_text_span.end] == b"FLASHINFER"
    v1 = smoke.env[0]
    assert apply(data, [Edit(v1.delete_span, "")]).count(b"VLLM_USE_V1") == 0
    assert [v.version for v in smoke.version_hints] == ["v0.9.2"]  # default: image: {name:}
    assert [v.version for v in other.version_hints] == ["v0.8.5"]  # the job's own image


def test_gitlab_variables_need_a_gitlab_shaped_file():
    # a `script:` key alone (no stage/stages/.gitlab-ci name) is not taken for GitLab CI
    data = b"variables:\n  VLLM_USE_V1: '1'\ntask:\n  script:\n    - vllm serve m\n"
    (la,) = Y.extract(data, "tasks.yaml").launches
    assert la.env == []
    (la,) = Y.extract(data, "ci/.gitlab-ci.yml").launches
    assert [e.name for e in la.env] == ["VLLM_USE_V1"]


def test_github_env_workflow_job_step_levels():
    data = b"""on: push
env:
  A_WF: "1"
jobs:
  serve:
    env:
      VLLM_JOB: "1"
    steps:
      - env:
          VLLM_STEP: "1"
        run: vllm serve m
"""
    (la,) = Y.extract(data, "wf.yml").launches
    assert [e.name for e in la.env] == ["A_WF", "VLLM_JOB", "VLLM_STEP"]


HELM_DEFAULT_TAGS = b'''apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: a
          image: "vllm/vllm-openai:{{ .Values.image.tag | default "v0.8.5" }}"
          args: ["--model", "{{ .Values.model }}"]
        - name: b
          image: vllm/vllm-openai:v{{- default "0.9.1" .Values.tag -}}
          args: ["--model", "m"]
        - name: c
          image: "vllm/vllm-openai:{{ .Values.image.tag | default .Chart.AppVersion }}"
          args: ["--model", "m"]
        - name: d
          image: "{{ .Values.image.repository | default "vllm/vllm-openai" }}:{{ .Values.image.tag | default "v0.10.0" }}"
          args: ["--model", "m"]
        - name: e
          image: "vllm/vllm-openai:{{ .Values.image.tag | default "v0.8.5" | quote }}"
          args: ["--model", "m"]
'''


def test_helm_default_tag_gives_a_version_hint():
    ex = Y.extract(HELM_DEFAULT_TAGS, "templates/deployment.yaml")
    check_spans(HELM_DEFAULT_TAGS, ex)
    got = {la.container.name: [(v.version, v.source) for v in la.version_hints] for la in ex.launches}
    assert got == {
        "a": [("v0.8.5", "helm-default")],
        "b": [("v0.9.1", "helm-default")],
        "c": [],  # default .Chart.AppVersion: not a literal
        "d": [("v0.10.0", "helm-default")],  # the repository renders from its default too
        "e": [],  # a pipeline after default: not followed
    }
    a = next(la for la in ex.launches if la.container.name == "a")
    sp = a.version_hints[0].span
    assert HELM_DEFAULT_TAGS[sp.start:sp.end] == b'{{ .Values.image.tag | default "v0.8.5" }}'
    b = next(la for la in ex.launches if la.container.name == "b")
    sp = b.version_hints[0].span
    assert HELM_DEFAULT_TAGS[sp.start:sp.end] == b'v{{- default "0.9.1" .Values.tag -}}'


def test_helm_default_tag_in_values_file():
    data = b'''image:
  repository: vllm/vllm-openai
  tag: '{{ .Values.global.vllmTag | default "0.8.5" }}'
command: ["vllm", "serve", "m"]
'''
    (la,) = Y.extract(data, "values.yaml").launches
    assert [(v.version, v.source) for v in la.version_hints] == [("0.8.5", "helm-default")]
    plain = data.replace(b'{{ .Values.global.vllmTag | default "0.8.5" }}', b"{{ .Values.global.vllmTag }}")
    (la,) = Y.extract(plain, "values.yaml").launches
    assert la.version_hints == []


def test_a_value_read_through_a_variable_a_template_writes_stays_opaque():
    data = (b"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  template:\n    spec:\n"
            b"      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.10.0\n"
            b"          env:\n            - name: MODEL_ID\n              value: {{ .Values.model }}\n"
            b"            - name: TP\n              value: \"3\"\n"
            b"          args: [\"--model=$(MODEL_ID)\", \"--tensor-parallel-size\", \"$(TP)\"]\n")
    (la,) = Y.extract(data, "deploy.yaml").launches
    model, _tp, tp = la.tokens
    assert (model.text, model.opaque, model.origin) == ("--model=$(MODEL_ID)", True, None)
    assert (tp.text, tp.opaque) == ("3", False) and tp.origin


def test_a_ci_job_line_that_assigns_a_stated_variable_hides_its_stated_value():
    # GitLab's script lines (and dstack's commands) run in one shell, each read on its own
    data = (b'stages: [t]\nvariables:\n  TP: "4"\n  MODEL: Qwen/Qwen2.5-7B-Instruct\nserve:\n  stage: t\n'
            b'  script:\n    - export TP=3\n    - vllm serve $MODEL -tp $TP\n')
    (la,) = Y.extract(data, ".gitlab-ci.yml").launches
    assert [(t.text, t.opaque) for t in la.tokens] == [
        ("Qwen/Qwen2.5-7B-Instruct", False), ("-tp", False), ("$TP", True)]
