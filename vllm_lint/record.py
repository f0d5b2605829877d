"""Start-up helpers (issue 7): plain record classes, regular expressions compiled at first use
(:func:`lazy_re`), and PyYAML imported without compiling what a lint never uses (:func:`import_pyyaml`).

A ``@dataclass`` generates its ``__init__``/``__repr__``/``__eq__`` as source text and compiles it
when the class is created: 0.3-1 ms per class on CPython 3.11, ~15 ms for the 30 records a
one-file lint created (benchmarks/README.md). The records of the lint path are therefore plain
classes with ``__slots__`` (in field order) and an explicit ``__init__``; this base gives them the
dataclass ``__repr__`` and ``__eq__``, and ``replace`` stands in for ``dataclasses.replace``.
"""

from __future__ import annotations

from typing import Any, TypeVar

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


# bound to the class itself, not its name: a name is a forward reference, compiled with ``compile()``,
# whose first call in a process builds the ast module's node classes (~10 M instructions)
T = TypeVar("T", bound=Record)


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


def import_pyyaml() -> Any:
    """``import yaml``, with every expression PyYAML's own modules compile while they execute handed
    back as a :func:`lazy_re`, compiled at its first use. The C loader never uses the pure-Python
    reader's ``Reader.NON_PRINTABLE`` (a Unicode class: a third of PyYAML's import) nor the
    constructor's timestamp expression (composing builds no values); the resolver's implicit-tag
    expressions compile when a plain scalar first needs one. Expressions other modules compile
    meanwhile (a standard module PyYAML imports) are compiled as always, and ``re.compile`` is
    itself again when the import ends. Every part of vllm-lint that reads YAML imports PyYAML here,
    so whichever comes first in a run leaves no compiled copy (benchmarks/README.md)."""
    import re
    import sys

    if "yaml" in sys.modules:
        return sys.modules["yaml"]
    real = re.compile

    def compile(pattern: Any, flags: int = 0) -> Any:
        if sys._getframe(1).f_globals.get("__name__", "").startswith("yaml."):
            return lazy_re(pattern, flags)
        return real(pattern, flags)

    re.compile = compile
    try:
        import yaml
    finally:
        re.compile = real
    return yaml
