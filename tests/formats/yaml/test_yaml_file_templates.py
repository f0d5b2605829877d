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
