"""The shortcuts of the argument reader's hot paths answer as the plain definitions do."""

from __future__ import annotations

import itertools
import re

import pytest

from vllm_lint.argv import looks_like_option
from vllm_lint.launch import Span


def test_looks_like_option_is_the_pattern_test():
    negative = re.compile(r"^-\d+$|^-\d*\.\d+$")
    alphabet = ["-", ".", "1", "\u0663", "\u00b2", "a", "Z", "_", " ", "\u216b", "="]
    words = ["".join(w) for n in range(5) for w in itertools.product(alphabet, repeat=n)]
    for w in words:
        assert looks_like_option(w) == (w.startswith("-") and len(w) > 1 and not negative.match(w)), w


def test_span_fields_and_immutability():
    s = Span(3, 7)
    assert (s.start, s.end) == (3, 7) and s == Span(3, 7) and hash(s) == hash((3, 7))
    with pytest.raises(ValueError):
        Span(7, 3)
    with pytest.raises(AttributeError):
        s.start = 1  # type: ignore[misc]
