"""A chart's template that names vLLM only through its chart's values (its image
``{{ .Values.image.repository }}:{{ .Values.image.tag }}``, its arguments from the values): the
pre-filter, which reads the file's own bytes, passes it when the chart's ``values.yaml`` names vLLM;
the values are read once per chart, and the result cache follows them."""

from __future__ import annotations

import json
import os

from vllm_lint.frontends.yaml import prefilter

TEMPLATE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Values.app }}
spec:
  template:
    spec:
      containers:
      - name: {{ .Values.app }}
        image: {{ .Values.image.repository }}:{{ .Values.image.tag }}
        args:
          - "{{ .Values.modelName }}"
          - "--swap-space"
          - "4"
"""

VALUES = "app: srv\nmodelName: org/m\nimage:\n  repository: registry.example.com/mirror/vllm-openai\n  tag: v0.10.0\n"


def _chart(root, values: str = VALUES, chart: bool = True):
    (root / "templates").mkdir(parents=True)
    if chart:
        (root / "Chart.yaml").write_text("apiVersion: v2\nname: srv\nversion: 0.1.0\n")
    (root / "values.yaml").write_text(values)
    t = root / "templates" / "deployment.yaml"
    t.write_text(TEMPLATE)
    return t


def _walk(run_cli, root, *extra):
    return json.loads(run_cli("--output-format", "json", *extra, str(root)).stdout)


def test_the_bytes_alone_fail_and_the_values_pass_them(tmp_path):
    t = _chart(tmp_path)
    data = t.read_bytes()
    assert not prefilter.might_contain_launch(data)
    assert prefilter.might_contain_launch_at(data, str(t))
    # no `.Values` in the bytes: nothing else is read
    assert not prefilter.might_contain_launch_at(b"kind: Pod\n", str(t))


def test_values_that_name_no_vllm_or_no_chart_keep_it_skipped(tmp_path):
    t = _chart(tmp_path / "a", values="app: web\nimage: {repository: nginx, tag: '1'}\n")
    assert not prefilter.might_contain_launch_at(t.read_bytes(), str(t))
    t2 = _chart(tmp_path / "b", chart=False)  # no Chart.yaml: no chart's template
    assert not prefilter.might_contain_launch_at(t2.read_bytes(), str(t2))


def test_the_values_are_read_once_while_unchanged(tmp_path, monkeypatch):
    t = _chart(tmp_path)
    data = t.read_bytes()
    reads = []
    from vllm_lint import fsutil

    original = fsutil.read_regular

    def counting(path, limit):
        reads.append(os.fspath(path))
        return original(path, limit)

    monkeypatch.setattr(fsutil, "read_regular", counting)
    prefilter._NAMING.clear()
    assert prefilter.might_contain_launch_at(data, str(t))
    assert prefilter.might_contain_launch_at(data, str(t))
    assert len(reads) == 1
    values = tmp_path / "values.yaml"
    values.write_text("app: web\nimage: {repository: nginx, tag: '1'}\n# longer, so its size changes\n")
    assert not prefilter.might_contain_launch_at(data, str(t))
    assert len(reads) == 2


def test_a_walk_reads_the_template_as_its_values_render_it(run_cli, tmp_path):
    t = _chart(tmp_path)
    found = [d for d in _walk(run_cli, tmp_path, "--select", "VL101", "-t", "0.27.1")
             if d["filename"].endswith("deployment.yaml")]
    assert [(d["code"], d["location"]["row"]) for d in found] == [("VL101", 13)]
    assert "--swap-space" in found[0]["message"] and found[0]["filename"] == str(t)


def test_the_cache_follows_the_values_of_a_template_that_names_no_vllm(run_cli, tmp_path, monkeypatch):
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    chart = tmp_path / "chart"
    _chart(chart, values="app: web\nimage: {repository: nginx, tag: '1'}\n")
    values = chart / "values.yaml"

    def codes():
        return sorted(d["code"] for d in _walk(run_cli, chart, "--select", "VL101", "-t", "0.27.1"))

    assert codes() == []
    assert codes() == []  # (a walked file without a launch: no record, read again)
    values.write_text(VALUES)  # the template is unchanged; its values now name vLLM
    assert codes() == ["VL101"]
    assert codes() == ["VL101"]  # answered by the cache
    values.write_text("app: web\nimage: {repository: nginx, tag: '2'}\n")
    assert codes() == []


def test_a_skipped_template_keeps_no_record_of_its_own(tmp_path):
    # (its pre-filter verdict rests on the values: a "none" record would outlive their change)
    t = _chart(tmp_path / "chart", values="app: web\nimage: {repository: nginx, tag: '1'}\n")
    from vllm_lint.frontends.base import get

    unit = get("yaml")
    assert unit.depends_on_others(t.read_bytes())
    assert not unit.depends_on_others(b"kind: Pod\n")
