"""``-O.<key>`` across the 0.12 boundary, on the shipped database (facts of the 0.12.0 and 0.13.0
sdists' ``FlexibleArgumentParser.parse_args``, checked with their real parsers): up to 0.11.x a
dotted key of the ``-O`` alias of ``--compilation-config``; 0.12.x rewrites it to ``-cc.<key>``
with a deprecation warning; from 0.13.0 the word is ``--optimization-level .<key>``, refused."""

from __future__ import annotations

import importlib.resources

import pytest

import vllm_lint


@pytest.fixture(autouse=True)
def _shipped_db(monkeypatch):
    monkeypatch.setenv("VLLM_LINT_DB", str(importlib.resources.files("vllm_lint.flag_db")))


def _codes(target: str, *words: str):
    r = vllm_lint.check_args(["serve", "m", *words], target=target)
    return [(f.diagnostic.code, f.diagnostic.severity) for f in r.findings], r


def test_before_0_12_a_dotted_key_of_the_alias():
    assert _codes("0.11.0", "-O.level=3")[0] == []


def test_0_12_reads_it_as_cc_and_warns():
    found, r = _codes("0.12.0", "-O.level=3", "-O.cudagraph_capture_sizes", "[1, 2]")
    assert found == [("VL106", "warning"), ("VL106", "warning")]
    assert r.fixed_args == ["serve", "m", "-cc.level=3", "-cc.cudagraph_capture_sizes", "[1, 2]"]
    assert "0.13.0 refuses it" in r.findings[0].diagnostic.message


def test_0_13_refuses_it_and_dates_the_removal_there():
    found, r = _codes("0.13.0", "-O.mode=3")
    assert found == [("VL101", "error")]
    assert "removed in vLLM 0.13.0 (last accepted by 0.12.0)" in r.findings[0].diagnostic.message
