"""A container whose command is a script a ConfigMap beside it holds (issue 27): the script runs
vLLM with its arguments (``exec vllm serve ... "$@"``), so the container's ``args`` are vLLM's
words, read at their own bytes; the script's own words are read (and reported) in its file."""

from __future__ import annotations

import pytest

from vllm_lint.frontends import yaml as Y
from span_invariants import check_spans

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: server
spec:
  template:
    spec:
      containers:
        - name: server
          image: vllm/vllm-openai:v0.27.1
          command: {command}
          args:
            - --max-model-len
            - "4096"
            - --swap-space
            - "4"
          volumeMounts:
            - name: scripts
              mountPath: /scripts
      volumes:
        - name: scripts
          configMap:
            name: server-scripts
            defaultMode: 0755
"""

CONFIGMAP = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: server-scripts
data:
  start.sh: |
    #!/bin/bash
    set -e
    {line}
"""


def _manifests(folder, command='["/scripts/start.sh"]', line='exec vllm serve --model=org/model "$@"'):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "configmap.yaml").write_text(CONFIGMAP.format(line=line))
    d = folder / "deployment.yaml"
    d.write_text(DEPLOYMENT.format(command=command))
    return d


def _launches(path):
    data = path.read_bytes()
    ex = Y.extract(data, str(path))
    check_spans(data, ex)
    return ex.launches


@pytest.mark.parametrize("command", ['["/scripts/start.sh"]', '["bash", "/scripts/start.sh"]'])
def test_the_containers_args_go_to_vllm_through_the_configmaps_script(tmp_path, command):
    d = _manifests(tmp_path, command)
    (la,) = _launches(d)
    assert la.entry == "vllm serve"
    assert [t.text for t in la.tokens] == ["--max-model-len", "4096", "--swap-space", "4"]
    data = d.read_bytes()
    assert data[la.tokens[2].span.start:la.tokens[2].span.end] == b"--swap-space"
    assert la.opaque  # (the script's own --model: not absent)
    assert "a ConfigMap of `configmap.yaml` holds" in la.read_as and "--model=org/model" in la.read_as
    assert la.image == "vllm/vllm-openai:v0.27.1"


def test_a_script_that_adds_nothing_of_its_own_leaves_the_launch_closed(tmp_path):
    (la,) = _launches(_manifests(tmp_path, line='exec python3 -m vllm.entrypoints.openai.api_server "$@"'))
    assert la.entry == "openai.api_server" and not la.opaque


@pytest.mark.parametrize("line", [
    "exec vllm serve --model=org/model",  # the container's words do not reach vLLM
    'exec /app/router --backend vllm "$@"',  # another program takes them
])
def test_a_script_that_does_not_pass_its_arguments_to_vllm_is_no_launch(tmp_path, line):
    assert _launches(_manifests(tmp_path, line=line)) == []


def test_a_configmap_of_another_folder_is_not_read(tmp_path):
    _manifests(tmp_path / "other")
    d = tmp_path / "deploy" / "deployment.yaml"
    d.parent.mkdir()
    d.write_text((tmp_path / "other" / "deployment.yaml").read_text())
    assert _launches(d) == []


def test_a_charts_configmap_script_is_read_as_the_chart_renders_it(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: srv\nversion: 0.1.0\n")
    (tmp_path / "values.yaml").write_text("cache: false\nmodel: org/model\n")
    (tmp_path / "templates" / "configmap.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-scripts\ndata:\n"
        "  start.sh: |\n    #!/bin/bash\n    {{- if .Values.cache }}\n    exec vllm serve /cache/model \"$@\"\n"
        "    {{- else }}\n    exec vllm serve {{ .Values.model }}\n    {{- end }}\n")
    d = tmp_path / "templates" / "deployment.yaml"
    d.write_text(DEPLOYMENT.format(command='["/scripts/start.sh"]'))
    assert _launches(d) == []  # (the branch the values render does not pass the arguments)
    (tmp_path / "values.yaml").write_text("cache: true\nmodel: org/model\n")
    (la,) = _launches(d)
    assert la.entry == "vllm serve" and [t.text for t in la.tokens][:2] == ["--max-model-len", "4096"]
