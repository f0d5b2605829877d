"""A template of a YAML file named so (``deploy.yaml.tpl``, ``.yml.tmpl``, ``.yaml.template``): read
as the manifest it renders, its placeholders (``${NAME}``, ``{name}``) unknown values; one that does
not parse as written is read for its command lines, with a note."""

from __future__ import annotations

from vllm_lint.frontends import yaml as yaml_fe

MANIFEST = b"""apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.27.1
          resources:
${RESOURCE_BLOCK}
          args: ["--model", "${MODEL}", "--max-model-len", "4096"]
"""


def test_a_manifest_template_is_read_with_its_placeholders_opaque():
    ex = yaml_fe.extract(MANIFEST, "k8s/deploy.yaml.tpl")
    (la,) = ex.launches
    model = [t for t in la.tokens if t.text.startswith("${") or t.opaque]
    assert model and all(t.opaque for t in model)
    assert any(t.text == "4096" and not t.opaque for t in la.tokens)
    assert any("placeholders" in n.message for n in ex.notes)


def test_the_same_bytes_under_a_plain_name_are_not_a_template():
    # (a manifest named .yaml is applied as written: `${RESOURCE_BLOCK}` at the margin is no YAML)
    try:
        ex = yaml_fe.extract(MANIFEST, "k8s/deploy.yaml")
    except Exception as e:  # noqa: BLE001 - the parse error is the point
        assert "parse" in str(e).lower() or "yaml" in str(e).lower()
    else:
        assert not ex.launches


def test_a_template_that_does_not_parse_is_read_for_its_command_lines():
    data = b"service:\n  ports: {port}: x\nrun: |\n  vllm serve {model} --max-model-len 4096\n"
    ex = yaml_fe.extract(data, "sky/task.yaml.tpl")
    assert [n for n in ex.notes if "does not parse as YAML as written" in n.message]
    assert len(ex.launches) == 1


ROLE_TEMPLATE = b"""apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.27.1
          args:
            - "--model"
            - "{{ vllm_model }}"
{% if vllm_tp > 1 %}
            - "--tensor-parallel-size"
            - "{{ vllm_tp }}"
{% endif %}
{% if vllm_local_only | bool %}
            - "--host"
            - "127.0.0.1"
{% else %}
            - "--host"
            - "0.0.0.0"
{% endif %}
"""


def _words(la):
    return [t.text for t in la.tokens]


def test_a_jinja_manifest_reads_the_branch_its_roles_defaults_decide(tmp_path):
    role = tmp_path / "roles" / "vllm"
    (role / "templates").mkdir(parents=True)
    (role / "defaults").mkdir()
    (role / "defaults" / "main.yml").write_text("vllm_tp: 1\nvllm_local_only: 'no'\n")
    path = role / "templates" / "deploy.yaml.j2"
    path.write_bytes(ROLE_TEMPLATE)
    (la,) = yaml_fe.extract(ROLE_TEMPLATE, str(path)).launches
    words = _words(la)
    assert "--tensor-parallel-size" not in words  # (vllm_tp > 1 is false: nothing renders)
    assert words[words.index("--host") + 1] == "0.0.0.0"  # (the `else`: local_only is "no")
    # role vars over defaults
    (role / "vars").mkdir()
    (role / "vars" / "main.yml").write_text("vllm_tp: 2\nvllm_local_only: true\n")
    (la,) = yaml_fe.extract(ROLE_TEMPLATE, str(path)).launches
    words = _words(la)
    assert "--tensor-parallel-size" in words and words[words.index("--host") + 1] == "127.0.0.1"


def test_without_a_role_the_first_branch_is_read():
    (la,) = yaml_fe.extract(ROLE_TEMPLATE, "deploy.yaml.j2").launches
    words = _words(la)
    assert "--tensor-parallel-size" in words and words.count("--host") == 1
    assert words[words.index("--host") + 1] == "127.0.0.1"


def test_a_jinja_manifest_that_does_not_parse_is_read_as_before():
    data = b"x: {% for a in b %}\n  - y: [\nrun: vllm serve m --max-model-len 4096\n"
    ex = yaml_fe.extract(data, "task.yaml.j2")
    assert len(ex.launches) == 1 and not ex.notes  # (the reader of last resort's command lines, no note)


def test_jinja_conditions_decided_by_variables():
    from vllm_lint.frontends.jinja_vars import decide

    v = {"a": 2, "flag": "yes", "name": "gpu", "off": False, "templ": "{{ other }}"}
    assert decide("a > 1", v) is True and decide("a == 3", v) is False
    assert decide("flag | bool", v) is True and decide("off", v) is False and decide("not off", v) is True
    assert decide('name == "gpu" and a >= 2', v) is True and decide("off or a < 1", v) is False
    assert decide("missing is defined", v) is False and decide("a is defined", v) is True
    assert decide("missing", v) is None and decide("templ", v) is None and decide("a in [1, 2]", v) is None
    assert decide("off or missing", v) is None and decide("off and missing", v) is False
    assert decide("a > 1", None) is None
