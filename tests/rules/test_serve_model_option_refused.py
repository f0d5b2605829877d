"""`vllm serve --model X` is refused by ``parse_args`` from 0.8.3 (not 0.8.5): the real parsers of
0.8.3 and 0.8.5 raise "provide the model as a positional argument"; 0.8.2's model is a required
positional, so `--model` alone leaves it missing (issue 29's crosscheck at 0.8.3)."""

from __future__ import annotations

import pytest

import vllm_lint


def _vl110(line: str, target: str) -> list[str]:
    return [d.message for d in vllm_lint.lint(line + "\n", "serve.sh", target=target) if d.code == "VL110"]


@pytest.mark.parametrize("target", ["0.8.3", "0.8.4", "0.8.5", "0.11.0"])
def test_refused_from_0_8_3(target):
    assert any("refuses `--model`" in m for m in _vl110("vllm serve --model m", target))
    assert any("refuses `--model`" in m for m in _vl110("vllm serve m --model x", target))
    # parse_args looks for the word `--model`: `--model=m` is taken by the option as usual
    assert not any("refuses" in m for m in _vl110("vllm serve --model=m", target))


def test_0_8_2_needs_the_positional():
    msgs = _vl110("vllm serve --model m", "0.8.2")
    assert msgs and all("refuses" not in m for m in msgs)
    assert any("needs the model as its positional argument" in m for m in msgs)


def test_a_later_model_word_is_refused_after_an_inline_one():
    # 0.10.0's real parser: `--model=facebook/opt-125m --model /tmp/x` raises "provide the model as a
    # positional argument" (parse_args looks for the word `--model` anywhere)
    assert any("refuses `--model`" in m for m in _vl110("vllm serve --model=a --model b", "0.10.0"))
    assert any("refuses `--model`" in m for m in _vl110("vllm serve --model=a --model b", "0.8.3"))
    assert not any("refuses" in m for m in _vl110("vllm serve --model=a", "0.10.0"))
