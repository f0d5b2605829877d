"""Scalar maps: decoded value offsets back to file bytes, per style, verified."""

from __future__ import annotations

import random

import pytest
import yaml as pyyaml

from vllm_lint.frontends.yaml.scalar import map_scalar


def _node(src: str):
    doc = pyyaml.compose(src, Loader=pyyaml.CSafeLoader)
    return doc.value[0][1]


def _check(src: str):
    node = _node(src)
    data = src.encode()
    s, e = node.start_mark.index, node.end_mark.index
    assert src.isascii()
    m = map_scalar(data, s, e, node.style, node.value)
    vb = node.value.encode()
    for v, f, ln in m.segments:
        assert data[f : f + ln] == vb[v : v + ln]
    return node, m


def test_plain():
    node, m = _check("k: --swap-space\n")
    assert m.complete and m.span(2, 6) is not None


def test_single_quote_escape_breaks_map():
    node, m = _check("k: 'it''s --tp 2'\n")
    assert node.value == "it's --tp 2"
    assert not m.complete
    assert m.span(0, 2) is not None and m.span(0, 4) is None
    assert m.span(5, 11) is not None


def test_double_quote_escapes():
    node, m = _check('k: "a \\"b\\" \\t c\\u00e9 d"\n')
    assert node.value == 'a "b" \t cé d'
    vb = node.value.encode()
    i = vb.index(b"b")
    assert m.span(i, i + 1) is not None
    assert m.span(i - 1, i + 1) is None  # the escaped quote has no 1:1 counterpart


def test_literal_block_indent_map():
    src = "k: |\n  line one\n    indented\n\n  last\nnext: 1\n"
    node, m = _check(src)
    assert node.value == "line one\n  indented\n\nlast\n"
    i = node.value.index("indented")
    sp = m.span(i, i + 8)
    assert src.encode()[sp.start : sp.end] == b"indented"


def test_literal_block_strip_and_keep():
    for src in ["k: |-\n  a b\n\n\nn: 1\n", "k: |+\n  a b\n\n\nn: 1\n", "k: |2\n    x\n  y\n"]:
        _check(src)


def test_folded_maps_each_line_and_not_the_folds():
    src = "k: >\n  vllm serve m\n  --tp 2\n\n  --port 8000\n"
    node, m = _check(src)
    assert node.value == "vllm serve m --tp 2\n--port 8000\n"
    assert [src.encode()[f:f + n] for _v, f, n in m.segments] == [b"vllm serve m", b"--tp 2", b"--port 8000"]
    assert m.span(13, 19) is not None and m.span(11, 14) is None  # a word maps; a fold does not


def test_folded_random_lines_map_exactly():
    rnd = random.Random("folded")
    words = ["a", "--tp", "2", "x#y", "'q'", '"d"', "\\", "  more", "", "\t"]
    for _ in range(300):
        lines = [" ".join(rnd.choice(words) for _ in range(rnd.randint(0, 3))) for _ in range(rnd.randint(1, 5))]
        src = "k: >" + rnd.choice(["", "-", "+"]) + "\n" + "".join(("  " + ln).rstrip() + "\n" for ln in lines)
        try:
            _check(src)  # every mapped run is exact
        except pyyaml.YAMLError:
            continue


@pytest.mark.parametrize("style", [None, "'", '"', "|"])
def test_random_roundtrip(style):
    rnd = random.Random(f"roundtrip {style}")  # a str seed is hashed with SHA-512: the same every run
    chars = "abc -=$'\"\\\t:#{}[],&*!%@`"
    for _ in range(300):
        val = "".join(rnd.choice(chars) for _ in range(rnd.randint(1, 30)))
        if style == "|":
            val = val.replace("\t", " ").strip() + "\n" + val.replace("\t", " ").strip() + "\n"
            if not val.strip():
                continue
        try:
            src = pyyaml.dump({"k": val}, default_style=style, width=10**6, allow_unicode=True)
        except pyyaml.YAMLError:
            continue
        node = _node(src)
        if node.value != val:
            continue
        data = src.encode()
        m = map_scalar(data, node.start_mark.index, node.end_mark.index, node.style, node.value)
        vb = node.value.encode()
        for v, f, ln in m.segments:
            assert data[f : f + ln] == vb[v : v + ln], (src, m.segments)
