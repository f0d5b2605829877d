"""Helm templates read as Helm renders them (issue 27): `{{-` joins a line to the one before (a
`\\` continuation survives it), `if`/`else if`/`else` keep the branch that renders when literals
or the chart's values.yaml decide it, and an undecided `if` with an `else` is unknown (its words
are splats, never judged). Offsets and line breaks are kept, so fixes land on the written bytes."""

from __future__ import annotations

import pytest

from vllm_lint.frontends import yaml as Y
from vllm_lint.frontends.yaml.templates import _truth, fill_templates

TEMPLATE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: srv
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.8.5
          command: ["/bin/sh", "-c"]
          args:
            - |
              vllm serve org/m \\
                {{- if .Values.lora.enabled }}
                --enable-lora \\
                {{- else if eq .Values.mode "eager" }}
                --enforce-eager \\
                {{- else }}
                --max-num-seqs 8 \\
                {{- end }}
                --port 8000
"""


def _chart(tmp_path, values: str):
    (tmp_path / "templates").mkdir()
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: srv\nversion: 0.1.0\n")
    (tmp_path / "values.yaml").write_text(values)
    t = tmp_path / "templates" / "deployment.yaml"
    t.write_text(TEMPLATE)
    return t


def _words(path) -> list[tuple[str, bool]]:
    (la,) = Y.extract(path.read_bytes(), str(path)).launches
    assert not la.dropped  # the continuation survives every rendering: nothing cut off (VL109)
    return [(t.text, t.splat) for t in la.tokens]


@pytest.mark.parametrize("values, kept", [
    ("lora: {enabled: true}\nmode: eager\n", "--enable-lora"),
    ("lora: {enabled: false}\nmode: eager\n", "--enforce-eager"),
    ("lora: {enabled: false}\nmode: graph\n", "--max-num-seqs"),
])
def test_the_branch_the_values_choose_is_read(tmp_path, values, kept):
    words = _words(_chart(tmp_path, values))
    assert [w for w, _splat in words if w.startswith("--")] == [kept, "--port"]


def test_an_undecided_chain_is_unknown_and_its_words_are_splats(tmp_path):
    words = _words(_chart(tmp_path, "mode: eager\n"))  # .Values.lora.enabled: a field of nil
    assert ("--port", False) in words
    assert {w for w, splat in words if splat} == {"--enable-lora", "--enforce-eager", "--max-num-seqs", "8"}


def test_offsets_and_line_breaks_are_kept_and_the_fix_lands_on_the_written_line(tmp_path):
    t = _chart(tmp_path, "lora: {enabled: false}\nmode: graph\n")
    data = t.read_bytes()
    filled, _regions = fill_templates(data, {"lora": {"enabled": False}, "mode": "graph"})
    assert len(filled) == len(data) and filled.count(b"\n") == data.count(b"\n")
    (la,) = Y.extract(data, str(t)).launches
    i = [tok.text for tok in la.tokens].index("--max-num-seqs")
    (edit,) = la.delete_tokens(la.tokens[i:i + 2])
    assert data[edit.span.start:edit.span.end].strip() == b"--max-num-seqs 8 \\"


def test_a_blank_action_line_without_trimming_cuts_the_command_off():
    data = b"a: |\n  vllm serve m \\\n    {{ if .Values.x }}\n    --port 1\n    {{ end }}\n"
    filled, _ = fill_templates(data, {"x": True})
    assert b"vllm serve m \\\n                      \n    --port 1" in filled


@pytest.mark.parametrize("cond, values, truth", [
    (b"true", None, True), (b"false", None, False), (b"0", None, False), (b'""', None, False),
    (b".Values.a", None, None), (b".Values.a", {"a": 1}, True), (b".Values.a", {}, False),
    (b".Values.a.b", {}, None), (b"not .Values.a", {"a": []}, True),
    (b"and .Values.a .Values.b", {"a": 1, "b": 0}, False), (b"or .Values.a .Values.b", {"a": 1}, True),
    (b'eq .Values.m "x"', {"m": "x"}, True), (b'ne .Values.m "x"', {"m": "x"}, False),
    (b"include \"t\" .", {}, None), (b"(.Values.a)", {"a": 1}, None), (b".Values.a | default 1", {}, None),
])
def test_conditions_a_static_reading_decides(cond, values, truth):
    assert _truth(cond, values) is truth


def test_a_backslash_that_ends_a_yaml_value_is_no_continuation():
    data = b"env:\n  - name: X\n    value: C:\\\n  {{- if .Values.y }}\n  - name: Z\n  {{- end }}\n"
    filled, _ = fill_templates(data, {"y": False})
    assert filled.count(b"\\") == 1 and filled.count(b"\n") == data.count(b"\n")


GATED = """\
{{- if eq .Values.topology "multiNode" }}
apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
spec:
  containers:
    - name: kserve-container
      image: vllm/vllm-openai:v0.8.5
      args:
        - --port=8080
        - --max-model-len=4096
      command:
        - bash
        - -c
        - |
          CMD="python3 -m vllm.entrypoints.openai.api_server \\
              --distributed-executor-backend ray $0 $@"
          exec $CMD
{{- end }}
"""


def test_a_resource_the_defaults_switch_off_is_read(tmp_path):
    """A chart's `if` around a whole resource (no `else`) that its defaults leave off renders
    once a user turns it on: read, where an `if` inside a command stays decided by the values."""
    (tmp_path / "templates").mkdir()
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: srv\nversion: 0.1.0\n")
    (tmp_path / "values.yaml").write_text("topology: singleNode\n")
    t = tmp_path / "templates" / "runtime.yaml"
    t.write_text(GATED)
    (la,) = Y.extract(t.read_bytes(), str(t)).launches
    assert la.entry == "openai.api_server"
    # `bash -c SCRIPT a b`: the script's `$0 $@` are the container's args, at their own bytes
    data = t.read_bytes()
    assert [t.text for t in la.tokens] == ["--distributed-executor-backend", "ray", "--port=8080",
                                           "--max-model-len=4096"]
    assert [data[t.span.start:t.span.end] for t in la.tokens[2:]] == [b"--port=8080", b"--max-model-len=4096"]
    (edit,) = la.delete_tokens(la.tokens[3:])
    assert data[edit.span.start:edit.span.end].strip() == b"- --max-model-len=4096"


def test_positional_parameters_without_args_stay_opaque():
    data = b"""containers:
  - name: s
    image: vllm/vllm-openai:v0.8.5
    command: ["sh", "-c", "exec vllm serve m --dtype half $@"]
"""
    (la,) = Y.extract(data, "pod.yaml").launches
    assert [(t.text, t.opaque) for t in la.tokens] == [("m", False), ("--dtype", False), ("half", False),
                                                       ("$@", True)]


def test_only_a_parameter_the_container_passes_is_replaced():
    data = b"""containers:
  - name: s
    image: vllm/vllm-openai:v0.8.5
    command: ["sh", "-c", "exec vllm serve m $1 $3", "name", "--enforce-eager"]
"""
    (la,) = Y.extract(data, "pod.yaml").launches
    assert [(t.text, t.opaque) for t in la.tokens] == [("m", False), ("--enforce-eager", False), ("$3", True)]


HELPERS = """\
{{/* the chart's named templates */}}
{{- define "srv.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag }}
{{- end }}

{{- define "srv.vllmArgs" -}}
--max-model-len {{ .Values.maxLen }} {{ include "srv.more" . }}
{{- end }}
{{- define "srv.more" }}--enforce-eager{{ end }}
{{- define "srv.gated" -}}
{{- if .Values.eager }}--enforce-eager{{ end }}
{{- end }}
{{- define "srv.unknown" -}}
{{- if eq .Values.mode "x" }}--enforce-eager{{ end }}
{{- end }}
"""

NAMED = """\
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: {{ include "srv.image" . }}
          command: ["/bin/sh", "-c"]
          args:
            - |
              exec vllm serve {{ .Values.model }} \\
                {{ include "srv.vllmArgs" . }} {{ include "srv.gated" . }} {{ include "srv.unknown" . }}
        - name: args-only
          image: "{{ include "srv.image" . }}"
          args: ["--model", "{{ .Values.model }}", "--dtype", "half"]
"""


def test_named_templates_render_from_the_charts_defines(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: srv\nversion: 0.1.0\n")
    (tmp_path / "values.yaml").write_text(
        "image: {repository: vllm/vllm-openai, tag: v0.8.5}\nmodel: org/m\nmaxLen: 4096\neager: true\n")
    (tmp_path / "templates" / "_helpers.tpl").write_text(HELPERS)
    t = tmp_path / "templates" / "deployment.yaml"
    t.write_text(NAMED)
    data = t.read_bytes()
    script, listed = Y.extract(data, str(t)).launches
    words = [(w.text, w.opaque, w.splat) for w in script.tokens]
    # the define's words, each a word of the shell line (at the include that renders them); a
    # define's `if` on a value renders (eager: true), one on a comparison stays unknown
    assert words[:5] == [("org/m", False, False), ("--max-model-len", False, False), ("4096", False, False),
                         ("--enforce-eager", False, False), ("--enforce-eager", False, False)]
    assert words[5][1]  # {{ include "srv.unknown" . }}: opaque
    k = data.index(b'{{ include "srv.vllmArgs" . }}')
    assert script.tokens[1].span.start == k and script.tokens[1].text_span is None
    # an image from a named template: its args are vLLM's, its tag the release
    assert listed.entry == "docker:vllm/vllm-openai:v0.8.5"
    assert [(v.version, v.source) for v in listed.version_hints] == [("v0.8.5", "helm-values")]


def test_a_define_renders_its_ifs_and_ranges_over_the_values():
    from vllm_lint.frontends.yaml.chart_values import ChartValues, _trimmed, render_control

    values = ChartValues({"model": "org/m", "maxLen": 4096, "eager": True, "lora": False, "zero": 0,
                          "extraArgs": ["--a", 1], "nested": {"k": 1}})
    body = ('--model {{ .Values.model }}\n{{- if .Values.maxLen }} --max-model-len {{ .Values.maxLen }}{{- end }}\n'
            '{{- if .Values.lora }} --enable-lora{{- else if .Values.eager }} --enforce-eager{{- else }} -x{{- end }}\n'
            '{{- if not .Values.zero }} --zero-unset{{- end }}\n'
            '{{- range .Values.extraArgs }} {{ . | quote }}{{- end }}')
    assert render_control(_trimmed(body), values) == \
        "--model org/m --max-model-len 4096 --enforce-eager --zero-unset --a 1"
    for unknown in ('{{ if eq .Values.model "x" }}a{{ end }}', "{{ range .Values.nested }}a{{ end }}",
                    "{{ with .Values.nested }}a{{ end }}", "{{ if .Values.eager }}a", "{{ range .Values.missing }}a{{ end }}"):
        assert render_control(unknown, values) is None, unknown
    assert render_control("{{ if .Values.lora }}a{{ end }}b", values) == "b"


def test_named_templates_of_a_file():
    from vllm_lint.frontends.yaml.chart_values import named_templates

    assert named_templates(HELPERS)["srv.gated"] == '{{- if .Values.eager }}--enforce-eager{{ end }}'
    assert named_templates('{{ define "a" }} x {{ if .b }}y{{ end }} {{ end }}') == {"a": " x {{ if .b }}y{{ end }} "}


JOINED = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: srv
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.8.5
          command: ["/bin/sh", "-c"]
          args:
            - |
              exec vllm serve {{ .Values.model }} {{ include "srv.args" . }} --port 8000
"""


def test_a_list_joined_in_a_named_template_renders_as_words_no_fix_cuts_one(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: srv\nversion: 0.1.0\n")
    (tmp_path / "values.yaml").write_text("model: org/m\nextraArgs: [--max-num-seqs, '8', --swap-space, '4']\n")
    (tmp_path / "templates" / "_helpers.tpl").write_text(
        '{{- define "srv.args" -}}\n--dtype half {{ .Values.extraArgs | join " " }}\n{{- end }}\n')
    t = tmp_path / "templates" / "deployment.yaml"
    t.write_text(JOINED)
    data = t.read_bytes()
    (la,) = Y.extract(data, str(t)).launches
    assert [w.text for w in la.tokens] == ["org/m", "--dtype", "half", "--max-num-seqs", "8", "--swap-space", "4",
                                           "--port", "8000"]
    k = data.index(b'{{ include "srv.args" . }}')
    assert {w.span.start for w in la.tokens[1:7]} == {k}
    # a cut of `--swap-space 4` would take the include, and the other words it renders with it
    assert la.delete_tokens(la.tokens[5:7]) is None
    assert la.delete_tokens(la.tokens[7:9]) is not None  # (the literal words stay editable)


def test_the_note_on_a_rendered_template_does_not_say_the_values_lack_what_they_give(tmp_path):
    """VL002 on a template whose launch values the chart's values render: it counts what was
    rendered, and never says the values do not give the expressions they do give."""
    (tmp_path / "templates").mkdir()
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: srv\nversion: 0.1.0\n")
    (tmp_path / "values.yaml").write_text("name: srv\nmodel: org/m\nlen: 4096\n")
    t = tmp_path / "templates" / "deployment.yaml"
    t.write_text('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Values.name }}\nspec:\n'
                 '  template:\n    spec:\n      containers:\n      - name: s\n        image: vllm/vllm-openai:v0.8.5\n'
                 '        args: ["vllm", "serve", "{{ .Values.model }}", "--max-model-len", "{{ .Values.len }}"]\n')
    (note,) = [n.message for n in Y.extract(t.read_bytes(), str(t)).notes if "template expression" in n.message]
    assert note == ("3 template expression(s) ({{ ... }}): 2 launch value(s) rendered from the chart's "
                    "values.yaml, the other expressions read as unknown values")


IMAGE_BRANCHES = """\
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: srv
          image: >-
            {{- if eq .Values.gpuProvider "amd" }}
            {{ .Values.amdImage.repository }}:{{ .Values.amdImage.tag }}
            {{- else if eq .Values.gpuProvider "nvidia" }}
            {{ .Values.nvidiaImage.repository }}:{{ .Values.nvidiaImage.tag }}
            {{- else }}
            {{ .Values.image.repository }}:{{ .Values.image.tag }}
            {{- end }}
          args:
            - --model=m
"""


def test_an_image_chosen_by_branches_in_a_block_scalar_renders_from_the_values(tmp_path):
    # (the lines of only actions above the image, longer than its indentation, are no YAML error:
    # templates.block_scalar_leads; the branch the values choose renders the image)
    (tmp_path / "templates").mkdir()
    (tmp_path / "Chart.yaml").write_text("apiVersion: v2\nname: srv\nversion: 0.1.0\n")
    (tmp_path / "values.yaml").write_text(
        "gpuProvider: nvidia\namdImage: {repository: rocm/vllm, tag: latest}\n"
        "nvidiaImage: {repository: vllm/vllm-openai, tag: v0.10.0}\n"
        "image: {repository: vllm/vllm-openai, tag: v0.8.5}\n")
    t = tmp_path / "templates" / "deployment.yaml"
    t.write_text(IMAGE_BRANCHES)
    (la,) = Y.extract(t.read_bytes(), str(t)).launches
    assert la.container is not None and la.container.run_image == "vllm/vllm-openai:v0.10.0"
    (hint,) = [h for h in la.version_hints if h.source == "helm-values"]
    assert hint.version == "v0.10.0"
    data = t.read_bytes()
    assert data[hint.span.start:hint.span.end] == b"{{ .Values.nvidiaImage.tag }}"  # (the branch's tag)


def test_a_parse_error_names_the_files_line_after_a_block_scalars_leads_are_blanked():
    from vllm_lint.frontends.yaml.loader import compose, prepare
    from vllm_lint.launch import ParseError

    data = b"a: >-\n      {{- if true }}\n  x\n  {{- end }}\nb: [\n"
    filled, _regions = prepare(data)
    assert b"\r" in filled and filled.count(b"\n") == data.count(b"\n")  # (lone CRs: same length, same lines)
    with pytest.raises(ParseError) as e:
        compose(filled)
    assert e.value.line == 6  # (the file's line, not YAML's count of the CRs)
