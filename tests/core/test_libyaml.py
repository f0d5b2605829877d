"""vllm_lint.libyaml: PyYAML's C parser, and plain scalars' implicit tags without the resolver's
regular expressions (the same answers as PyYAML's ``Resolver``). What a lint imports, and that
``import yaml`` afterwards gets the whole package: tests/core/test_import_cost.py."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from vllm_lint import libyaml
from vllm_lint.record import LazyPattern


def _compiled(pattern):
    """PyYAML's own expression, compiled here (libyaml leaves them uncompiled)."""
    if isinstance(pattern, LazyPattern):
        return re.compile(*pattern._source)
    return pattern


_RESOLVERS = {first: [(tag, _compiled(p)) for tag, p in rows]
              for first, rows in libyaml.Resolver.yaml_implicit_resolvers.items()}


def _pyyaml_tag(value: str) -> str:
    """``Resolver.resolve`` for a plain scalar, with the compiled expressions."""
    for tag, regexp in _RESOLVERS.get(value[:1] if value else "", []) + _RESOLVERS.get(None, []):
        if regexp.match(value):
            return tag
    return libyaml.Resolver.DEFAULT_SCALAR_TAG


def test_the_first_characters_and_their_types_are_pyyamls():
    assert {first: [tag for tag, _t in rows] for first, rows in libyaml._IMPLICIT.items()} == \
        {first: [tag for tag, _p in rows] for first, rows in _RESOLVERS.items()}


_FIXED = [
    "", "~", "null", "Null", "NULL", "nul", "nulls", "true", "True", "TRUE", "tRUE", "yes", "No", "on", "OFF", "y", "n",
    "0", "-0", "+12", "012", "09", "0o17", "0x1F", "0x", "0b", "0b101", "0b2", "-0b1", "+0x_", "1_000", "1__", "_1",
    "0.", "-1.5e3", "1e3", "1.5e+3", "1.5E-03", "1.5e+", "1.5e3", "6.8523015e+5", ".5", "-.5", "._5", ".5e+1", "1.2.3",
    "190:20:30", "190:20:30.15", "190:60", "190:5", "190:05", "0:30", "1:2:3.4e+5", "1:2.", ":30", "1:", "1::2",
    ".inf", "-.Inf", "+.INF", ".nan", "-.nan", ".NaN", "+", "-", ".", "..5",
    "2001-12-14", "2001-1-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2001-12-14\t21:59:43Z",
    "2001-12-14T21:59:43", "2001-12-14T1:59:43.", "2001-12-14T21:59:4", "2001-12-14 21:59:43 Z", "2001-12-14 21:59:43 ",
    "2001-12-14T21:59:43+05:3", "2001-12-14T21:59:43+5:30", "2001-12-14T21:59:43+123", "20011-12-14", "2001-12-1",
    "=", "==", "<<", "<", "!", "&", "*", "vllm serve m", "--tensor-parallel-size", "v0.8.5", "0.8.5", "1.0", "8000",
    "caf\u00e9", "\u0661\u0662", "1\u0661", "true\n", "8\n", "8\n\n", "\n", "~\n", "null\n", "1.5\n", "2001-12-14\n",
    "x" * 100, "1" * 100,
]


@pytest.mark.parametrize("value", _FIXED)
def test_plain_tag_is_the_resolvers(value):
    assert libyaml.plain_tag(value) == _pyyaml_tag(value)


_ALPHABET = "0123456789_-+.:eExXbBo tTZ\n~nulyYsfFa<=!&*"


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=14))
def test_plain_tag_is_the_resolvers_on_any_text(value):
    assert libyaml.plain_tag(value) == _pyyaml_tag(value)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_plain_tag_is_the_resolvers_on_each_types_texts(data):
    """Texts each expression matches, and the same with one character changed, added or cut."""
    rows = sorted({(tag, p.pattern, p.flags) for rs in _RESOLVERS.values() for tag, p in rs})
    tag, pattern, flags = data.draw(st.sampled_from(rows))
    value = data.draw(st.from_regex(re.compile(pattern, flags)))
    assert libyaml.plain_tag(value) == _pyyaml_tag(value)
    if value:
        i = data.draw(st.integers(0, len(value)))
        c = data.draw(st.sampled_from(_ALPHABET))
        for near in (value[:i] + c + value[i:], value[:i] + c + value[i + 1:], value[:i] + value[i + 1:]):
            assert libyaml.plain_tag(near) == _pyyaml_tag(near), near
