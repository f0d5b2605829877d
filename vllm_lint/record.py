"""Start-up helpers (issue 7): plain record classes, regular expressions compiled at first use
(:func:`lazy_re`), JSON decoded without the ``json`` package (:func:`json_loads`, :data:`lazy_json`),
and ``json`` imported without compiling what a lint never uses when it is needed (:func:`import_json`;
PyYAML is imported so by :mod:`vllm_lint.libyaml`).

A ``@dataclass`` generates its ``__init__``/``__repr__``/``__eq__`` as source text and compiles it
when the class is created: 0.3-1 ms per class on CPython 3.11, ~15 ms for the 30 records a
one-file lint created (benchmarks/README.md). The records of the lint path are therefore plain
classes with ``__slots__`` (in field order) and an explicit ``__init__``; this base gives them the
dataclass ``__repr__`` and ``__eq__``, and ``replace`` stands in for ``dataclasses.replace``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional, TypeVar


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


if TYPE_CHECKING:  # (bound to the class itself, not its name: a name is a forward reference)
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


class ScreenedPattern(LazyPattern):
    """A :class:`LazyPattern` whose ``search``, ``match`` and ``fullmatch`` first look for the text
    every match must hold (:func:`required_text`: one of a few literals): a string holding none of
    them is answered None without compiling. For the expressions tried against every string of a
    kind and matching few (a vendor's image repositories, quantisation suffixes of model names):
    compiling one costs 0.1-0.4 ms. A call with ``pos``/``endpos``, or with non-ASCII text for a
    case-insensitive expression (Unicode case folding), is not screened."""

    def __init__(self, pattern: Any, flags: int = 0, need: Optional[tuple[tuple[str, ...], bool]] = None) -> None:
        super().__init__(pattern, flags)
        self._need = need  # (literals, case-folded): at first use, unless the caller knows them

    def _screened(self, name: str, string: Any, args: tuple) -> Any:
        need = self._need
        if need is None:
            need = self._need = required_text(*self._source)
        literals, folded = need
        if literals and not args and isinstance(string, str):
            text = string
            if folded:
                text = string.lower() if string.isascii() else None
            if text is not None and not any(lit in text for lit in literals):
                return None
        return LazyPattern.__getattr__(self, name)(string, *args)

    def search(self, string: Any, *args: Any) -> Any:
        return self._screened("search", string, args)

    def match(self, string: Any, *args: Any) -> Any:
        return self._screened("match", string, args)

    def fullmatch(self, string: Any, *args: Any) -> Any:
        return self._screened("fullmatch", string, args)


def screened_re(pattern: Any, flags: int = 0, need: Optional[tuple[tuple[str, ...], bool]] = None) -> Any:
    """A :class:`ScreenedPattern` (typed ``Any``, as :func:`lazy_re`); ``need``: what
    :func:`required_text` says of the pattern, when the caller keeps it (checked by its tests)."""
    return ScreenedPattern(pattern, flags, need)


class _Unknown(Exception):
    """A construct :func:`required_text` does not read: no screen."""


def required_text(pattern: Any, flags: int = 0) -> tuple[tuple[str, ...], bool]:
    """(literals, folded): every match of ``pattern`` holds one of ``literals`` (lower case when
    ``folded``: the expression ignores case); ``()`` when that cannot be told (not a plain string
    expression, a verbose one, an escape or group form this reader does not know, an alternative
    without literal text). Read as ``re``'s parser reads the pattern: a literal made optional by
    ``?``, ``*`` or ``{0,...}`` and anything in a class, an optional group or a lookaround is not
    counted; a group that must match counts by its own alternatives."""
    import re

    if not isinstance(pattern, str):
        return (), False
    if flags & re.X:
        pattern = _unverbose(pattern)
        if pattern is None:
            return (), False
    state = {"fold": bool(flags & re.I)}
    try:
        need, end = _alternation(pattern, 0, state)
        if end != len(pattern) or need is None:
            return (), False
    except _Unknown:
        return (), False
    if state["fold"]:
        if not all(lit.isascii() for lit in need):
            return (), False
        need = {lit.lower() for lit in need}
    return tuple(sorted(need)), state["fold"]


_CLASS_ESCAPES = frozenset("dDwWsSbBAZ")


def _unverbose(p: str) -> Optional[str]:
    """A verbose (``re.X``) expression without its layout: whitespace and ``#`` comments outside
    classes dropped, escapes kept (None for an escaped space or ``#``, which this reader does not
    spell back)."""
    out = []
    i, in_class = 0, False
    while i < len(p):
        c = p[i]
        if c == "\\":
            if p[i + 1:i + 2] in (" ", "#", "\n", "\t") and not in_class:
                return None
            out.append(p[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]" or p[i - 1] == "[" or p[i - 2:i] == "[^"
        elif c == "[":
            in_class = True
        elif c.isspace():
            i += 1
            continue
        elif c == "#":
            end = p.find("\n", i)
            i = len(p) if end < 0 else end + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _alternation(p: str, i: int, state: dict) -> tuple[Optional[set], int]:
    """The literals one of which every match of the alternatives from ``i`` holds (None: none
    known), and where they end (a ``)`` or the end)."""
    alts = []
    while True:
        need, i = _sequence(p, i, state)
        alts.append(need)
        if i < len(p) and p[i] == "|":
            i += 1
            continue
        break
    if any(a is None for a in alts):
        return None, i
    return set().union(*alts), i


def _quantifier(p: str, i: int) -> tuple[Optional[bool], int]:
    """The quantifier at ``i``: (None, i) without one, else (whether its atom must match, the
    index after it and its lazy or possessive mark)."""
    if i >= len(p):
        return None, i
    c = p[i]
    if c in "*?+":
        must, j = c == "+", i + 1
    elif c == "{":
        if p.startswith("}", i + 1):
            return None, i  # (``{}`` is literal text)
        j = i + 1
        lo = ""
        while j < len(p) and p[j].isdigit():
            lo += p[j]
            j += 1
        if j < len(p) and p[j] == ",":
            j += 1
            while j < len(p) and p[j].isdigit():
                j += 1
        if j >= len(p) or p[j] != "}":
            return None, i  # (not a repeat: literal text)
        must, j = bool(lo) and int(lo) >= 1, j + 1
    else:
        return None, i
    if j < len(p) and p[j] in "?+":
        j += 1
    return must, j


def _class_end(p: str, i: int) -> int:
    """The index after the character class opening at ``i``."""
    j = i + 1
    if j < len(p) and p[j] == "^":
        j += 1
    if j < len(p) and p[j] == "]":
        j += 1
    while j < len(p) and p[j] != "]":
        j += 2 if p[j] == "\\" else 1
    if j >= len(p):
        raise _Unknown
    return j + 1


def _sequence(p: str, i: int, state: dict) -> tuple[Optional[set], int]:
    found: list[set] = []  # the sets of literals one of which every match holds (any one will do)
    run = ""

    def cut() -> None:
        nonlocal run
        if run:
            found.append({run})
        run = ""

    while i < len(p) and p[i] not in "|)":
        c = p[i]
        if c == "\\":
            if i + 1 >= len(p):
                raise _Unknown
            e = p[i + 1]
            if e.isalnum() or e == "_":
                if e not in _CLASS_ESCAPES:
                    raise _Unknown  # (\x41, \n, \1, ...: not read)
                cut()
                _must, i = _quantifier(p, i + 2)
                continue
            lit, i = e, i + 2
        elif c == "[":
            cut()
            _must, i = _quantifier(p, _class_end(p, i))
            continue
        elif c == "(":
            cut()
            need, i = _group(p, i, state)
            must, i = _quantifier(p, i)
            if need is not None and must is not False:
                found.append(need)
            continue
        elif c in ".^$":
            cut()
            _must, i = _quantifier(p, i + 1)
            continue
        elif c in "*+?":
            raise _Unknown  # (a repeat of nothing: an error for re)
        else:
            lit, i = c, i + 1
        must, i = _quantifier(p, i)
        if must is None:
            run += lit
        elif must:
            run += lit
            cut()
        else:
            cut()
    cut()
    if not found:
        return None, i
    return max(found, key=lambda s: min(map(len, s))), i


def _group(p: str, i: int, state: dict) -> tuple[Optional[set], int]:
    """The literals of the group opening at ``i`` (None for a lookaround) and the index after it."""
    j = i + 1
    counts = True
    if p.startswith("?", j):
        if p.startswith("?:", j) or p.startswith("?>", j):
            j += 2
        elif p.startswith("?P<", j):
            end = p.find(">", j)
            if end < 0:
                raise _Unknown
            j = end + 1
        elif p.startswith(("?=", "?!"), j):
            j, counts = j + 2, False
        elif p.startswith(("?<=", "?<!"), j):
            j, counts = j + 3, False
        else:  # inline flags: global ones at the very start only
            k = j + 1
            while k < len(p) and p[k] in "aiLmsux":
                k += 1
            if i != 0 or k >= len(p) or p[k] != ")" or "x" in p[j + 1:k]:
                raise _Unknown
            if "i" in p[j + 1:k]:
                state["fold"] = True
            return None, k + 1
    need, j = _alternation(p, j, state)
    if j >= len(p) or p[j] != ")":
        raise _Unknown
    return (need if counts else None), j + 1


def import_json() -> Any:
    """``import json``, with the expressions its modules compile while they execute handed back as
    lazy patterns (:class:`LazyPattern`), compiled at first use. With the C accelerator (``_json``)
    a decode uses ``decoder.WHITESPACE`` alone (bound as a default argument: compiled then); the number,
    string-chunk and escape expressions serve the pure-Python scanner and encoders
    (~0.5 ms; benchmarks/README.md, issue 31's sixth pass). A lint decodes with
    :func:`json_loads` and needs the package only to encode (a message quoting a JSON value, the JSON
    reports): :data:`lazy_json` imports it so then, unless other code of the process did first (as
    :mod:`vllm_lint.libyaml` imports PyYAML's modules)."""
    import re
    import sys

    if "json" in sys.modules:
        return sys.modules["json"]
    real = re.compile

    def compile(pattern: Any, flags: int = 0) -> Any:
        if sys._getframe(1).f_globals.get("__name__", "").startswith("json."):
            return LazyPattern(pattern, flags)
        return real(pattern, flags)

    re.compile = compile
    try:
        import json
    finally:
        re.compile = real
    return json


class _Decoding:
    """What ``json.loads`` gives its C scanner (``json.decoder.JSONDecoder()``'s attributes)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


_SCAN: Any = None
_JSON_SPACE = " \t\n\r"  # json.decoder.WHITESPACE's characters


def json_loads(data: Any) -> Any:
    """``json.loads(data)`` without importing the ``json`` package (four modules, ~5 M instructions,
    3 % of a one-file lint: issue 31's eighth pass): a str, or bytes whose encoding
    ``json.detect_encoding`` reads as UTF-8 (their first byte ASCII and neither of the first two
    NUL), is decoded by the C scanner ``json.loads`` itself uses (``_json.make_scanner`` on the
    default decoder's settings), the white space around the value skipped as
    ``json.decoder.WHITESPACE`` does. Anything else, and every input it does not decode (an error,
    extra data), is handed to ``json.loads``: the same value or the same exception."""
    global _SCAN
    scan = _SCAN
    if scan is None:
        try:
            from _json import make_scanner
        except ImportError:  # pragma: no cover (CPython builds it)
            scan = False
        else:
            scan = make_scanner(_Decoding())
        _SCAN = scan
    s = data
    if isinstance(s, (bytes, bytearray)):
        if s[:1] >= b"\x80" or s[:1] == b"\x00" or s[1:2] == b"\x00":
            s = None  # (a BOM, UTF-16 or UTF-32: json.loads's way)
        else:
            try:
                s = s.decode("utf-8", "surrogatepass")
            except UnicodeDecodeError:
                s = None
    if scan and type(s) is str:
        start = len(s) - len(s.lstrip(_JSON_SPACE))
        try:
            value, end = scan(s, start)
        except Exception:  # StopIteration (no value), a JSONDecodeError, a RecursionError: as json says
            pass
        else:
            if not s[end:].strip(_JSON_SPACE):
                return value
    return import_json().loads(data)


class _LazyJson:
    """The ``json`` module of a module that uses it in a few places a lint seldom reaches:
    ``loads`` is :func:`json_loads`, any other name is the module's, imported (:func:`import_json`)
    at its first use."""

    loads = staticmethod(json_loads)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(import_json(), name)


lazy_json: Any = _LazyJson()


def fewer_young_collections() -> None:
    """No young garbage collection during start-up: the threshold is :data:`START_YOUNG` allocations
    (instead of 700) until :func:`settle_collections`, which the lint calls when start-up is over (the
    console calls this first).

    Start-up allocates mostly what lives to the end (~200 modules, the rules, the database): a
    one-file lint ran ~22 young collections at 700 allocations that freed next to nothing, about
    5 % of its CPU, and still one at 10,000 (~12,000 allocations before its file is read): 3.6 M
    instructions, 2 % (benchmarks/README.md, issue 31's eighth pass)."""
    import gc

    threshold = gc.get_threshold()
    if threshold[0] < START_YOUNG:
        gc.set_threshold(START_YOUNG, *threshold[1:])


#: the young generation's threshold from the console's start to the end of start-up
START_YOUNG = 100_000
#: and after it: young collections every 10,000 allocations (the lint of many files keeps the same
#: threshold, ``vllm_lint.pipeline.parallel``)
YOUNG = 10_000


def settle_collections() -> None:
    """The end of start-up (a lint about to find its files, a click command about to run): what
    start-up made is frozen out of the collector's passes (``gc.freeze``, which also starts the
    young count again: no collection falls due at once) and young collections run every
    :data:`YOUNG` allocations, as they did from the start before. Only undoes the console's own
    threshold: a process that set another (an API caller) keeps it, and nothing is frozen."""
    import gc

    threshold = gc.get_threshold()
    if threshold[0] == START_YOUNG:
        gc.freeze()
        gc.set_threshold(YOUNG, *threshold[1:])


def import_module(name: str) -> Any:
    """``importlib.import_module(name)`` of an absolute name, without importing ``importlib`` (and
    the ``warnings`` it imports: ~1.6 M instructions of a one-file lint, issue 31's eighth pass):
    the module ``__import__`` loads, as ``sys.modules`` holds it."""
    import sys

    mod = sys.modules.get(name)
    if mod is None:
        __import__(name)
        mod = sys.modules[name]
    return mod
