"""A Helm chart's values.yaml joined with its templates: literal values render into the template's
words, environment and image tag; the values file is recorded, so the result cache follows it."""

from __future__ import annotations

import json

from vllm_lint.frontends import yaml as Y
from vllm_lint.frontends.yaml.chart_values import render

TEMPLATE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "srv.fullname" . }}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default "v0.8.5" }}"
          args:
            - --model
            - {{ .Values.model | quote }}
            - --tensor-parallel-size={{ .Values.tp }}
            - --max-num-seqs
            - {{ .Values.unknown }}
          env:
            - name: VLLM_HOST_IP
              value: {{ .Values.hostIp | quote }}
"""


def _chart(tmp_path, values: str):
    (tmp_path / "templates").mkdir()
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: srv\nversion: 0.1.0\n")
    (tmp_path / "values.yaml").write_text(values)
    t = tmp_path / "templates" / "deployment.yaml"
    t.write_text(TEMPLATE)
    return t


def test_template_words_env_and_tag_render_from_the_values(tmp_path):
    t = _chart(tmp_path, "image: {repository: vllm/vllm-openai, tag: v0.10.0}\nmodel: org/m\ntp: 2\n"
                         "hostIp: 10.0.0.1\n")
    data = t.read_bytes()
    (la,) = Y.extract(data, str(t)).launches
    texts = [(tok.text, tok.opaque) for tok in la.tokens]
    assert texts == [("--model", False), ("org/m", False), ("--tensor-parallel-size=2", False),
                     ("--max-num-seqs", False), ("{{ .Values.unknown }}", True)]
    # a rendered word points at the expression, and offers no in-place edit
    tp = la.tokens[2]
    assert data[tp.span.start:tp.span.end] == b"--tensor-parallel-size={{ .Values.tp }}" and tp.text_span is None
    (env,) = la.env
    assert (env.value, env.value_opaque, env.value_text_span) == ("10.0.0.1", False, None)
    (vh,) = la.version_hints
    assert (vh.version, vh.source) == ("v0.10.0", "helm-values")
    assert b"{{ .Values.image.tag" in data[vh.span.start:vh.span.end]


def test_without_a_value_the_default_and_then_nothing(tmp_path):
    t = _chart(tmp_path, "image: {repository: vllm/vllm-openai}\ntp: [1, 2]\n")
    (la,) = Y.extract(t.read_bytes(), str(t)).launches
    # the tag renders from its default; the repository from the values
    assert [(v.version, v.source) for v in la.version_hints] == [("v0.8.5", "helm-values")]
    assert la.tokens[2].opaque  # a list is no literal
    assert la.env[0].value_opaque


def test_a_file_outside_a_chart_reads_no_values(tmp_path):
    (tmp_path / "values.yaml").write_text("tp: 2\n")
    t = tmp_path / "deployment.yaml"
    t.write_text(TEMPLATE)
    words = [tok.text for la in Y.extract(t.read_bytes(), str(t)).launches for tok in la.tokens]
    assert "--tensor-parallel-size=2" not in words


def test_render_pipes():
    values = {"a": {"b": 3}, "flag": True, "s": "x y", "empty": ""}
    assert render("{{ .Values.a.b }}", values) == "3"
    assert render("--n={{- $.Values.a.b | quote -}}", values) == "--n=3"
    assert render("{{ .Values.flag }}", values) == "true"
    assert render('{{ .Values.empty | default "d" }}', values) == "d"
    assert render('{{ .Values.missing | default `lit` | quote }}', values) == "lit"
    assert render('{{ required "set a.b" .Values.a.b }}', values) == "3"
    assert render("{{ .Values.a }}", values) is None  # a mapping
    assert render("{{ .Values.a.b | int }}", values) is None  # a function we do not evaluate
    assert render("{{ include \"x\" . }}", values) is None
    listed = {"args": ["--max-model-len", 4096, True], "nested": [{"a": 1}]}
    assert render('vllm serve m {{ .Values.args | join " " }}', listed) == "vllm serve m --max-model-len 4096 true"
    assert render('{{ .Values.args | join "," | quote }}', listed) == "--max-model-len,4096,true"  # (YAML unquotes it)
    assert render('{{ .Values.nested | join " " }}', listed) is None  # (Go prints a map its own way)
    assert render('{{ .Values.missing | join " " }}', listed) is None


def test_the_cache_follows_the_values_file(run_cli, tmp_path, monkeypatch):
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "templates").mkdir()
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: srv\nversion: 0.1.0\n")
    values = tmp_path / "values.yaml"
    values.write_text("extra: --swap-space\n")
    t = tmp_path / "templates" / "deployment.yaml"
    t.write_text("kind: Pod\nspec:\n  containers:\n    - name: vllm\n      image: vllm/vllm-openai:v0.27.1\n"
                 "      args: [\"--model\", \"m\", \"{{ .Values.extra }}\", \"4\"]\n")

    def codes():
        out = run_cli("--output-format", "json", "--select", "VL101", str(t)).output
        return sorted(d["code"] for d in json.loads(out))

    assert codes() == ["VL101"]
    assert codes() == ["VL101"]  # answered by the cache
    values.write_text("extra: --max-num-seqs\n")  # the template is unchanged; what it renders is not
    assert codes() == []
