"""An Argo CD Application that deploys a chart of its own repository (``spec.source.path``) with
``helm`` overrides: the chart's templates read as they render with them (``valueFiles``, ``values``,
``valuesObject``, then ``parameters``, as ``helm template --set`` would), each launch reported in the
Application (``frontends/yaml/argocd.py``)."""

from __future__ import annotations

import json

from vllm_lint import inputs
from vllm_lint.frontends import yaml as Y

TEMPLATE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Values.name }}
spec:
  template:
    spec:
      containers:
      - name: server
        image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
        command: ["vllm", "serve"]
        args:
          - "{{ .Values.model }}"
          - "--max-model-len"
          - "{{ .Values.maxModelLen }}"
          - "--swap-space"
          - "4"
"""

VALUES = "name: srv\nmodel: org/m\nmaxModelLen: 4096\nimage:\n  repository: vllm/vllm-openai\n  tag: v0.27.1\n"

APP = """\
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: vllm-server
spec:
  source:
    repoURL: https://example.com/org/repo
    path: charts/server
    helm:
{helm}
  destination:
    namespace: llm
"""

PARAMS = """\
      parameters:
      - name: image.tag
        value: "v0.8.5"
      - name: maxModelLen
        value: "8192"
"""


def _repo(tmp_path, helm: str = PARAMS, values: str = VALUES, git: bool = True):
    tmp_path.mkdir(parents=True, exist_ok=True)
    if git:
        (tmp_path / ".git").mkdir()
    chart = tmp_path / "charts" / "server"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: server\nversion: 0.1.0\n")
    (chart / "values.yaml").write_text(values)
    (chart / "templates" / "deployment.yaml").write_text(TEMPLATE)
    app = tmp_path / "argocd" / "vllm-app.yaml"
    app.parent.mkdir()
    app.write_text(APP.format(helm=helm.rstrip("\n")))
    return app


def _launches(app):
    with inputs.recording() as reads:
        out = Y.extract(app.read_bytes(), str(app))
    return out.launches, reads


def test_the_parameters_render_the_charts_template_reported_in_the_application(tmp_path):
    app = _repo(tmp_path)
    (la,) = _launches(app)[0]
    data = app.read_bytes()
    assert la.path == str(app)
    assert data[la.span.start:la.span.end].startswith(b"parameters:")
    words = [(tok.text, tok.opaque) for tok in la.tokens]
    assert words == [("org/m", False), ("--max-model-len", False), ("8192", False), ("--swap-space", False),
                     ("4", False)]
    # a word rendered from a parameter is at that parameter's value; the others at the helm block
    assert data[la.tokens[2].span.start:la.tokens[2].span.end] == b'"8192"'
    assert la.tokens[1].span == la.span
    assert all(tok.text_span is None for tok in la.tokens) and la.delete_tokens is None  # (no fix)
    (vh,) = la.version_hints
    assert vh.version == "v0.8.5" and data[vh.span.start:vh.span.end] == b'"v0.8.5"'
    assert "as this Application's helm overrides render it" in la.read_as


def test_the_chart_and_its_template_are_inputs(tmp_path):
    app = _repo(tmp_path)
    _, reads = _launches(app)
    chart = tmp_path / "charts" / "server"
    assert {str(chart / "values.yaml"), str(chart / "templates" / "deployment.yaml")} <= set(reads)


def test_values_values_object_and_value_files_in_helms_order(tmp_path):
    helm = """\
      valueFiles:
      - values-prod.yaml
      values: |
        maxModelLen: 2048
      valuesObject:
        image:
          tag: v0.10.0
      parameters:
      - name: model
        value: org/other
"""
    app = _repo(tmp_path, helm)
    (tmp_path / "charts" / "server" / "values-prod.yaml").write_text("maxModelLen: 1024\nimage:\n  tag: v0.8.5\n")
    (la,) = _launches(app)[0]
    assert [tok.text for tok in la.tokens][:3] == ["org/other", "--max-model-len", "2048"]
    assert [vh.version for vh in la.version_hints] == ["v0.10.0"]


def test_set_keys_as_helm_reads_them():
    from vllm_lint.frontends.yaml.argocd import _set, _typed

    values: dict = {"a": {"b": 1}}
    assert _set(values, "a.c", 2) and _set(values, "x\\.y.z", "t") and not _set(values, "l[0]", 1)
    assert values == {"a": {"b": 1, "c": 2}, "x.y": {"z": "t"}}
    assert [_typed(v) for v in ("true", "false", "8192", "0.95", "08", "v1")] == [True, False, 8192, "0.95", "08", "v1"]


def test_a_forced_string(tmp_path):
    helm = """\
      parameters:
      - name: maxModelLen
        value: "08192"
        forceString: true
"""
    (la,) = _launches(_repo(tmp_path, helm))[0]
    assert la.tokens[2].text == "08192"


def test_no_chart_at_hand_reads_nothing(tmp_path):
    # outside a checkout: the path has no root to start from
    assert _launches(_repo(tmp_path / "a", git=False))[0] == []
    # a chart of a Helm repository
    app = _repo(tmp_path / "b")
    app.write_text(app.read_text().replace("path: charts/server", "chart: server\n    targetRevision: 1.0.0"))
    assert _launches(app)[0] == []
    # a path outside the repository, or to a folder with no chart
    app.write_text(app.read_text().replace("chart: server", "path: ../elsewhere"))
    assert _launches(app)[0] == []


def test_the_cli_reports_the_finding_in_the_application(run_cli, tmp_path):
    # (the chart's own tag, v0.27.1: the parameters set the model length only)
    app = _repo(tmp_path, PARAMS.replace('image.tag', 'other.tag'))
    out = json.loads(run_cli("--output-format", "json", "--select", "VL101", str(app)).stdout)
    assert [(d["code"], d["filename"], d["location"]["row"]) for d in out] == [("VL101", str(app), 10)]
    assert "--swap-space" in out[0]["message"] and "0.27.1" in out[0]["message"]
    assert out[0].get("fix") is None  # (the words are the template's)


def test_an_application_naming_no_vllm_is_read_in_a_walk(run_cli, tmp_path):
    # (its own bytes name no vLLM: the pre-filter passes an Application with a helm block and a path)
    app = _repo(tmp_path, PARAMS.replace("image.tag", "other.tag"))
    app.write_text(app.read_text().replace("vllm-server", "chat-server"))
    from vllm_lint.frontends.yaml import prefilter

    data = app.read_bytes()
    assert not prefilter.might_contain_launch(data) and prefilter.might_contain_launch_at(data, str(app))
    out = json.loads(run_cli("--output-format", "json", "--select", "VL101", str(tmp_path / "argocd")).stdout)
    assert [(d["code"], d["filename"]) for d in out] == [("VL101", str(app))]


def test_an_application_of_its_own_chart_is_rendered_once(tmp_path):
    # (an app of apps whose template is an Application of the same chart: no endless rendering)
    app = _repo(tmp_path)
    own = tmp_path / "charts" / "server" / "templates" / "app.yaml"
    own.write_text(APP.format(helm=PARAMS.rstrip("\n")).replace("vllm-server", "{{ .Values.name }}"))
    launches, _ = _launches(app)
    assert len(launches) == 1
