"""Counted work, for the linear-time tests (no clocks: the same input gives the same counts).

:func:`measure` lints bytes in-process and counts two things:

* ``calls``: every Python and C function call made while the file is read and checked
  (``sys.setprofile``), which catches a loop that grows with the square of the input;
* ``scanned``: the bytes that the file's own ``bytes`` object is asked to search, count, slice or
  test (``find``, ``count``, ``in``, ``[a:b]``, ...): the file is handed to the engine as a
  :class:`MeteredBytes`, so a search from the start of the file for every fence or launch shows as
  quadratic growth, though it is one C call.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional


class MeteredBytes(bytes):
    """``bytes`` that add up the length of every range their methods look at."""

    scanned = 0  # class-wide: one file is measured at a time

    @staticmethod
    def _range(n: int, start: Optional[int], end: Optional[int]) -> tuple[int, int]:
        start, end, _ = slice(start, end).indices(n)
        return start, max(start, end)

    def _note(self, k: int) -> None:
        MeteredBytes.scanned += k

    def count(self, sub, start=None, end=None):
        s, e = self._range(len(self), start, end)
        self._note(e - s)
        return super().count(sub, s, e)

    def find(self, sub, start=None, end=None):
        s, e = self._range(len(self), start, end)
        r = super().find(sub, s, e)
        self._note((e if r < 0 else r + 1) - s)
        return r

    def index(self, sub, start=None, end=None):
        r = self.find(sub, start, end)
        if r < 0:
            raise ValueError("subsection not found")
        return r

    def rfind(self, sub, start=None, end=None):
        s, e = self._range(len(self), start, end)
        r = super().rfind(sub, s, e)
        self._note(e - (s if r < 0 else r))
        return r

    def __contains__(self, sub):
        return self.find(sub) >= 0

    def __getitem__(self, key):
        if isinstance(key, slice):
            s, e, _ = key.indices(len(self))
            self._note(max(0, e - s))
        return super().__getitem__(key)

    def _whole(name):  # noqa: N805 - a method that reads the whole object
        def method(self, *a, **k):
            self._note(len(self))
            return getattr(bytes, name)(self, *a, **k)
        method.__name__ = name
        return method

    for _name in ("lower", "upper", "decode", "splitlines", "split", "strip", "replace", "translate", "isascii"):
        locals()[_name] = _whole(_name)
    del _name, _whole


@dataclass
class Work:
    calls: int
    scanned: int
    codes: list


def measure(db: Path, name: str, data: bytes, target: str = "0.27.1") -> Work:
    """Lint ``data`` as the file ``name`` (every default rule, at ``target``) and count the work."""
    from vllm_lint import api

    linter = api._linter(target, None, str(db), False)
    api.analyse_bytes(linter, MeteredBytes(b"vllm serve m\n"), "warm.sh")  # imports, grammar, release
    calls = 0

    def profile(frame, event, arg):
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    MeteredBytes.scanned = 0
    sys.setprofile(profile)
    try:
        diags, _fixed, _count = api.analyse_bytes(linter, MeteredBytes(data), name)
    finally:
        sys.setprofile(None)
    return Work(calls, MeteredBytes.scanned, [d.code for d in diags])


def assert_linear(db: Path, name: str, make, n: int, factor: int = 8, slack: float = 1.5) -> tuple[Work, Work]:
    """``make(n)`` and ``make(factor * n)`` linted: each count grows at most ``slack`` times more than
    the input (a quadratic step grows ``factor`` times more again: 8x the input, 64x the work)."""
    small, big = make(n), make(factor * n)
    ws, wb = measure(db, name, small), measure(db, name, big)
    grow = len(big) / len(small)
    for what in ("calls", "scanned"):
        a, b = getattr(ws, what), getattr(wb, what)
        # (a constant part, the same at both sizes, is allowed for: the warm-up file's size of work)
        assert b <= slack * grow * max(a, 1) + 20_000, (
            f"{name}: {what} grew {b / max(a, 1):.1f}x for {grow:.1f}x the input ({a} -> {b})")
    return ws, wb
