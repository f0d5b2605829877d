"""A chart that serves with vLLM only under one of its override values files (issue 27): a
back-end switch (`backend: llama-cpp` in values.yaml, `backend: vllm` in values-prod.yaml) whose
vLLM branch the defaults do not render is read as that override file renders it; a named template
of vLLM's options included with `indent N | trim` on a `\\`-continued command line renders its
words (a `range` item quoted as `quote` quotes it); and a chart's own values naming the model as
`model.repoId` (Hugging Face's repository id) is the image's launch with that model."""

from __future__ import annotations

from vllm_lint.frontends import yaml as Y
from vllm_lint.frontends.yaml.chart_values import chart_values, override_values, render_expr

TEMPLATE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "srv.fullname" . }}
spec:
  template:
    spec:
      containers:
        - name: server
          {{- if eq .Values.backend "llama-cpp" }}
          image: ghcr.io/ggml-org/llama.cpp:server
          command: ["/app/llama-server"]
          args: ["--model", "/models/m.gguf"]
          {{- else if eq .Values.backend "vllm" }}
          image: vllm/vllm-openai:v0.27.1
          command: ["/bin/sh", "-c"]
          args:
            - |
              MODEL=$(ls -d /models/* | head -1)
              exec vllm serve "$MODEL" \\
                {{ include "srv.vllmArgs" . | indent 16 | trim }}
          {{- end }}
"""

HELPERS = """\
{{- define "srv.vllmArgs" -}}
--port {{ .Values.port }} \\
--max-model-len {{ .Values.vllm.maxModelLen }} \\
{{- range .Values.vllm.extraArgs }}
{{ . | quote }} \\
{{- end }}
--dtype {{ .Values.vllm.dtype }}
{{- end }}
"""

DEFAULTS = "backend: llama-cpp\nport: 8000\nvllm:\n  maxModelLen: 4096\n  dtype: auto\n  extraArgs: []\n"
PROD = ("backend: vllm\nvllm:\n  maxModelLen: 32768\n  extraArgs:\n    - --reasoning-config\n"
        "    - '{\"start\": \"<think>\", \"end\": \"</think>\"}'\n    - --swap-space\n    - \"4\"\n")


def _chart(tmp_path, overrides: dict):
    (tmp_path / "templates").mkdir()
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: srv\nversion: 0.1.0\n")
    (tmp_path / "values.yaml").write_text(DEFAULTS)
    for name, text in overrides.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "templates" / "_helpers.tpl").write_text(HELPERS)
    t = tmp_path / "templates" / "deployment.yaml"
    t.write_text(TEMPLATE)
    return t


def test_a_vllm_branch_only_an_override_file_selects_is_read_as_it_renders_it(tmp_path):
    t = _chart(tmp_path, {"values-dev.yaml": "port: 9000\n", "values-prod.yaml": PROD})
    (la,) = Y.extract(t.read_bytes(), str(t)).launches
    assert la.entry == "vllm serve"
    assert [tok.text for tok in la.tokens][1:] == [
        "--port", "8000", "--max-model-len", "32768", "--reasoning-config",
        '{"start": "<think>", "end": "</think>"}', "--swap-space", "4", "--dtype", "auto"]
    assert "read as `values-prod.yaml` renders it" in la.read_as


def test_the_defaults_decide_when_they_render_vllm_and_no_override_is_read_otherwise(tmp_path):
    t = _chart(tmp_path, {"values-prod.yaml": PROD})
    (tmp_path / "values.yaml").write_text(DEFAULTS.replace("llama-cpp", "vllm"))
    (la,) = Y.extract(t.read_bytes(), str(t)).launches
    assert "--max-model-len" in [tok.text for tok in la.tokens] and "4096" in [tok.text for tok in la.tokens]
    assert not la.read_as
    # no override file that selects vLLM: the branch stays unread, as the chart renders by default
    (tmp_path / "values.yaml").write_text(DEFAULTS)
    (tmp_path / "values-prod.yaml").write_text("port: 9000\n")
    assert Y.extract(t.read_bytes(), str(t)).launches == []


def test_override_files_merge_over_the_defaults_as_helm_merges_them(tmp_path):
    t = _chart(tmp_path, {"values-prod.yaml": PROD, "prod-values.yaml": "x: 1\n", "notes.yaml": "backend: vllm\n"})
    (over, other) = override_values(chart_values(str(t)))
    assert (over.name, other.name) == ("prod-values.yaml", "values-prod.yaml")
    assert other["vllm"] == {"maxModelLen": 32768, "dtype": "auto", "extraArgs": other["vllm"]["extraArgs"]}
    assert other["port"] == 8000 and len(other["vllm"]["extraArgs"]) == 4
    # `indent N | trim` of a named template: its lines continue the command line
    text = render_expr('{{ include "srv.vllmArgs" . | indent 4 | trim }}', other)
    assert text.startswith("--port 8000 \\\n    --max-model-len 32768")
    assert render_expr('{{ include "srv.vllmArgs" . | indent 4 }}', other) is None  # (a structure)


def test_a_charts_own_values_naming_the_model_by_its_repository_id(tmp_path):
    values = tmp_path / "values.yaml"
    values.write_text("image:\n  repository: vllm/vllm-openai\n  tag: v0.27.1\n"
                      "model:\n  repoId: org/model\n  revision: main\n"
                      "vllm:\n  port: 8000\n  extraArgs: []\n")
    (la,) = Y.extract(values.read_bytes(), str(values)).launches
    assert la.image == "vllm/vllm-openai:v0.27.1" and la.tokens == [] and la.model == "org/model"
    # without a model, empty arguments are no launch
    values.write_text(values.read_text().replace("  repoId: org/model\n", ""))
    assert Y.extract(values.read_bytes(), str(values)).launches == []
