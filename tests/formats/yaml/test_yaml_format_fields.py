"""A launcher's ``str.format`` command templates (frontends/yaml/format_fields.py): which strings
are taken for one, and what their words become."""

import pytest

from vllm_lint.frontends import yaml as Y
from vllm_lint.frontends.yaml.format_fields import _fields


@pytest.mark.parametrize("value, fields", [
    (b"--port {port} --x '{{\"a\": 1}}'", [(7, 13)]),
    (b"--port {port:d} {cfg.name} {xs[0]}", [(7, 15), (16, 26), (27, 34)]),
    (b"--x '{{\"a\": 1}}'", []),
    (b"--port ${PORT}", [(8, 14)]),  # a field by str.format's reading (its name decides)
    (b"--x }", None),       # a single '}' is str.format's error
    (b"--x {}", None),      # a field without a name
    (b"--x {0}", None),
    (b"--x {a", None),
])
def test_fields(value, fields):
    assert _fields(value) == fields


def _tokens(src: str):
    ex = Y.extract(src.encode(), "t.yaml")
    (la,) = ex.launches
    return [(t.text, t.opaque) for t in la.tokens], ex


def test_fields_named_in_the_document_are_opaque_and_escapes_render():
    toks, ex = _tokens("defaults:\n  port: 8000\ncommand: |\n  vllm serve m \\\n    --port {port} \\\n"
                       "    --x '{{\"a\": 1}}'\n")
    assert toks == [("m", False), ("--port", False), ("{port}", True), ("--x", False), ('{"a": 1}', False)]
    assert not ex.notes  # the doubled braces are no template expression (VL002)


def test_a_field_the_document_does_not_name_is_literal():
    toks, _ = _tokens("command: |\n  vllm serve m \\\n    --port {port}\n")
    assert toks == [("m", False), ("--port", False), ("{port}", False)]


def test_a_helm_template_is_no_format_template():
    toks, ex = _tokens("port: 1\ncommand: |\n  vllm serve m \\\n    --port {{ .Values.port }}\n")
    assert toks[2][1] and ex.notes  # opaque as a template expression, and noted
