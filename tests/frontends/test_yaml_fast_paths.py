"""YAML front-end: what the issue-7 fast paths (loader, garbage collector, lazy work) must keep."""

from __future__ import annotations

import gc

import pytest
import yaml as pyyaml

from vllm_lint.frontends import yaml as Y
from vllm_lint.launch import ParseError
from yaml_invariants import check_spans

# ---------------------------------------------------------------------------------------------
# the loader: the same nodes and tags as PyYAML's safe loader


_SCALARS = [
    "", "~", "null", "Null", "NULL", "nul", "true", "True", "TRUE", "tRUE", "yes", "No", "on", "OFF", "y", "n",
    "0", "-0", "+12", "012", "0o17", "0x1F", "0b101", "1_000", "0.", "-1.5e3", "1e3", "6.8523015e+5",
    "190:20:30", "190:20:30.15", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
    "=", "<<", "a", "vllm serve m", "--tensor-parallel-size", "v0.8.5", "0.8.5", "1.0", "8000", "caf\u00e9",
    "x" * 100, "1" * 100, "true" + " " * 70 + "x",
]


def _tags(node):
    out = [(type(node).__name__, node.tag, node.value if isinstance(node, pyyaml.ScalarNode) else None)]
    if isinstance(node, pyyaml.SequenceNode):
        for x in node.value:
            out += _tags(x)
    elif isinstance(node, pyyaml.MappingNode):
        for k, v in node.value:
            out += _tags(k) + _tags(v)
    return out


@pytest.mark.parametrize("style", ["{}", "'{}'", '"{}"', "!!str {}", "! {}", "!custom {}"])
def test_loader_tags_match_the_safe_loader(style):
    values = [style.format(s) for s in _SCALARS]
    src = "\n".join(f"k{i}: {v}" for i, v in enumerate(values))  # values ("k: " is an empty plain scalar)
    src += "\n---\n" + "\n".join(f"- {v}" for v in values)  # sequence items
    src += "\n---\n" + "\n".join(f"? {v}\n: x" for v in values if v)  # keys
    src += "\n"
    want = [_tags(d) for d in pyyaml.compose_all(src, Loader=pyyaml.CSafeLoader)]
    for _ in range(2):  # the second pass answers from the cache
        assert [_tags(d) for d in pyyaml.compose_all(src, Loader=Y._Loader)] == want


def test_loader_tags_after_the_cache_is_emptied(monkeypatch):
    monkeypatch.setattr(Y, "_PLAIN_TAGS", {})
    monkeypatch.setattr(Y, "_TAG_CACHE_MAX", 3)
    src = "\n".join(f"k{i}: {s}" for i, s in enumerate(_SCALARS)) + "\n"
    want = [_tags(d) for d in pyyaml.compose_all(src, Loader=pyyaml.CSafeLoader)]
    assert [_tags(d) for d in pyyaml.compose_all(src, Loader=Y._Loader)] == want
    assert len(Y._PLAIN_TAGS) <= 3
    assert all(len(k) <= Y._TAG_TEXT_MAX for k in Y._PLAIN_TAGS)


def test_loader_leaves_pyyaml_alone():
    assert pyyaml.CSafeLoader.resolve is pyyaml.resolver.BaseResolver.resolve
    assert not Y._Loader.yaml_path_resolvers
    assert pyyaml.compose("a: 1", Loader=pyyaml.CSafeLoader).value[0][1].tag == "tag:yaml.org,2002:int"


def test_node_tags_reach_the_launch():
    """null / bool / int / float / str come from the tags: a config file's values."""
    src = b"model: m\nseed: 0x10\nswap-space: 4.5\nenforce-eager: yes\ndownload-dir: ~\nport: '8000'\n"
    (la,) = Y.extract(src, "c.yaml", explicit=True).launches
    assert {k.key: k.value for k in la.keyed} == {
        "model": "m", "seed": 16, "swap-space": 4.5, "enforce-eager": True, "download-dir": None, "port": "8000"}


# ---------------------------------------------------------------------------------------------
# the garbage collector: off for the call, as found afterwards; no cycles left behind


_K8S = b"""\
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.8.5
          args: ["--model", "m", "--swap-space", "4"]
          env:
            - {name: VLLM_USE_V1, value: "1"}
---
services:
  llm:
    image: vllm/vllm-openai:v0.9.0
    command: --model m --seed 1
"""


def test_garbage_collector_switched_back_on():
    enabled = gc.isenabled()
    try:
        gc.enable()
        Y.extract(_K8S, "t.yaml")
        assert gc.isenabled()
        with pytest.raises(ParseError):
            Y.extract(b"args: [\n", "t.yaml")
        assert gc.isenabled()
        gc.disable()
        Y.extract(_K8S, "t.yaml")
        assert not gc.isenabled()
    finally:
        if enabled:
            gc.enable()


def test_no_reference_cycles_left_behind():
    """The launches' delete_tokens keep the file object that found them; it no longer keeps the
    extraction, so the extraction is freed as soon as it is dropped."""
    serve_config = (b"kind: RayService\nspec:\n  serveConfigV2: |\n    applications:\n"
                    b"      - args:\n          containers:\n            - image: vllm/vllm-openai:v0.8.5\n"
                    b"              args: [--model, m]\n")
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for data in (_K8S, serve_config):
            ex = Y.extract(data, "t.yaml")
            assert ex.launches and all(la.delete_tokens for la in ex.launches)
            edits = ex.launches[0].delete_tokens(ex.launches[0].tokens[-1:])
            assert edits
            del ex
            assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_extraction_still_usable_after_the_call():
    data = _K8S
    ex = Y.extract(data, "t.yaml")
    check_spans(data, ex)
    k8s, compose = ex.launches
    assert [t.text for t in k8s.tokens] == ["--model", "m", "--swap-space", "4"]
    assert [e.name for e in k8s.env] == ["VLLM_USE_V1"]
    assert [t.text for t in compose.tokens] == ["--model", "m", "--seed", "1"]
    assert k8s.delete_tokens(k8s.tokens[2:]) and compose.delete_tokens(compose.tokens[2:])
