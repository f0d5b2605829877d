"""The release finding's screens (issue 31, seventh pass): a line screen before an expression, a
slice for a relative path. Each may only skip what the expression (or the function it stands for)
would not find: checked here against it."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from vllm_lint.pipeline import surroundings as s

_WORDS = ["vllm", "VLLM", "vLLM", "pip", "PIP", "p\u0131p", "P\u0130P", "uv", "uv pip", "install", "add", "sudo",
          "\u017fudo", "python", "PYTHON", "pretrained=",
          "python3 -m", "$", ">", "==", "===", "~=", "=", "0.8.5", "v0.9.1", "[", "]", "[audio]", "`", "-",
          " ", "\t", "\n", "\n", "x", "\u0130", "#", "\""]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=40))
def test_install_pins_are_finditers(words):
    text = "".join(words)
    want = [(m.span(), m.groups()) for m in s._INSTALL_PIN.finditer(text)]
    assert [(m.span(), m.groups()) for m in s._install_pins(text)] == want


def test_install_pins_on_lines():
    text = ("# Install\nRun `pip install vllm==0.1.0` here.\n  $ pip install vllm[audio,\nvideo]==0.8.5\n"
            "pip install -U vllm~=0.9.0 && pip install vllm==0.9.1\n\u017fudo pip install VLLM==0.10.0\n")
    got = [m.group(0) for m in s._install_pins(text)]
    assert got == [m.group(0) for m in s._INSTALL_PIN.finditer(text)]
    assert len(got) == 3


def test_the_screens_letters_are_the_expressions():
    """Ignoring case, the letters of sudo, python, pip, uv and vllm match only themselves and their
    upper case, but s (U+017F) and i (U+0131, U+0130: which lower-cases to two characters, read
    without the screen)."""
    extra = {"s": {"\u017f"}, "i": {"\u0131", "\u0130"}}
    for ch in "sudopythnivlm":
        got = {chr(c) for c in range(0x110000) if re.match("(?i)" + ch, chr(c))}
        assert got == {ch, ch.upper()} | extra.get(ch, set()), ch
        assert all(x.lower().translate(s._FOLD) == ch for x in got - {"\u0130"})
    assert len("\u0130".lower()) == 2
