"""Start-up helpers (issue 7): plain record classes, and regular expressions compiled at first use
(:func:`lazy_re`).

A ``@dataclass`` generates its ``__init__``/``__repr__``/``__eq__`` as source text and compiles it
when the class is created: 0.3-1 ms per class on CPython 3.11, ~15 ms for the 30 records a
one-file lint created (benchmarks/README.md). The records of the lint path are therefore plain
classes with ``__slots__`` (in field order) and an explicit ``__init__``; this base gives them the
dataclass ``__repr__`` and ``__eq__``, and ``replace`` stands in for ``dataclasses.replace``.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T", bound="Record")


class Record:
    """``__repr__`` and ``__eq__`` over ``__slots__``, as a dataclass would write them; unhashable
    (``__hash__ = None``) like a non-frozen dataclass with ``eq=True``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{k}={getattr(self, k)!r}' for k in self.__slots__)})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return tuple(getattr(self, k) for k in self.__slots__) == tuple(getattr(other, k) for k in other.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> tuple:
        return tuple(getattr(self, k) for k in self.__slots__)

    def __setstate__(self, state: tuple) -> None:
        for k, v in zip(self.__slots__, state):
            object.__setattr__(self, k, v)


def fields(obj: Any) -> tuple[str, ...]:
    """The field names of a record class or instance, in declaration order."""
    return obj.__slots__


def replace(obj: T, **changes: Any) -> T:
    """A copy of ``obj`` with ``changes`` applied (``dataclasses.replace`` for records); the
    constructor runs, so validation (``Span``) applies to the copy too."""
    kwargs = {k: getattr(obj, k) for k in obj.__slots__}
    for k in changes:
        if k not in kwargs:
            raise TypeError(f"{type(obj).__qualname__} has no field {k!r}")
    kwargs.update(changes)
    return type(obj)(**kwargs)


class LazyPattern:
    """``re.compile(pattern, flags)``, compiled at first use. For the module-level expressions that
    most runs never use: compiling costs 0.05-0.4 ms each at import (benchmarks/README.md). The
    pattern may be a function that returns it, called then too (for a pattern that takes work to
    build). After the first use the pattern's methods are instance attributes, so later calls cost
    no more than the compiled pattern's."""

    def __init__(self, pattern: Any, flags: int = 0) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        import re

        pattern, flags = self._source
        compiled = re.compile(pattern() if callable(pattern) else pattern, flags)
        for attr in ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split"):
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)


def lazy_re(pattern: Any, flags: int = 0) -> Any:
    """A :class:`LazyPattern` (typed ``Any`` so that callers read it as a compiled pattern)."""
    return LazyPattern(pattern, flags)
