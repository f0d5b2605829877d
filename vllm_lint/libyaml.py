"""PyYAML's C parser (libyaml, ``yaml._yaml``), with only the PyYAML modules it needs run.

``import yaml`` runs the package's ``__init__``, which imports the loaders and dumpers of both the
pure-Python and the C side (``yaml.loader``, ``yaml.dumper``, ``yaml.cyaml``: twelve classes
built from four or five bases each) and the API functions; a lint composes node trees with the C
parser and a resolver, and a few readers load plain data. The C extension reads, when it is
imported, the classes of the modules listed in :data:`_NEEDED` (the errors it raises, the tokens,
events and nodes it makes): those are imported, and not the package's ``__init__``. PyYAML's
package module is made from its spec as the import system makes it and put in ``sys.modules``;
its ``__init__`` runs, in that same module, the first time a name only it defines is asked for
(a module ``__getattr__``, PEP 562; ``dir()`` too). So another ``import yaml`` in the process (the
language server's, a plugin's, a test's) gets the whole package, with the very modules and classes
the lint used; a package imported before is used as it is (benchmarks/README.md, issue 31's
seventh pass).

While PyYAML's modules run, every expression they compile is handed back as a
:class:`~vllm_lint.record.ScreenedPattern`, compiled at its first use: the C parser never uses the
pure-Python reader's ``Reader.NON_PRINTABLE`` (a Unicode class: a third of PyYAML's import) nor
the constructor's timestamp expression, and the resolver's implicit-tag expressions compile when a
plain scalar first needs one, and not for a scalar holding none of their literals. Expressions
other modules compile meanwhile are compiled as always, and ``re.compile`` is itself again when
the import ends.

Without libyaml (a PyYAML built without it) the pure-Python loader does the same work.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Iterator

# the modules whose classes ``yaml._yaml`` reads when it is imported (its errors, tokens, events
# and nodes), and the resolver the loaders below use
_NEEDED = ("error", "tokens", "events", "nodes", "reader", "scanner", "parser", "composer", "constructor",
           "emitter", "serializer", "representer", "resolver")


def _import() -> tuple[Any, Any]:
    """PyYAML's package module (its ``__init__`` run or not) and ``yaml._yaml.CParser`` (None
    without libyaml), with the modules of :data:`_NEEDED` imported."""
    import re

    from vllm_lint.record import ScreenedPattern

    real = re.compile

    def compile(pattern: Any, flags: int = 0) -> Any:
        if sys._getframe(1).f_globals.get("__name__", "").startswith("yaml."):
            return ScreenedPattern(pattern, flags)  # (the resolver tries its on every new plain scalar)
        return real(pattern, flags)

    re.compile = compile
    try:
        package = sys.modules.get("yaml")
        if package is None:
            package = _package_unrun()
        for name in _NEEDED:
            __import__("yaml." + name)
        try:
            from yaml._yaml import CParser
        except ImportError:  # pragma: no cover - PyYAML without libyaml
            CParser = None
    finally:
        re.compile = real
    return package, CParser


def _package_unrun() -> Any:
    """PyYAML's package module, in ``sys.modules``, its ``__init__`` run at the first use of a name
    only it defines."""
    import _frozen_importlib as bootstrap
    import _thread

    spec = bootstrap._find_spec("yaml", None)  # (as the import system finds it)
    if spec is None or spec.loader is None or not spec.submodule_search_locations:
        import yaml  # (not a regular package: the import system's way)

        return yaml
    module = bootstrap.module_from_spec(spec)
    lock = _thread.allocate_lock()

    def finish() -> None:
        with lock:
            if vars(module).get("__getattr__") is __getattr__:
                del module.__getattr__, module.__dir__
                spec.loader.exec_module(module)

    def __getattr__(name: str) -> Any:
        finish()
        return getattr(module, name)

    def __dir__() -> list[str]:
        finish()
        return dir(module)

    module.__getattr__ = __getattr__
    module.__dir__ = __dir__
    sys.modules["yaml"] = module
    return module


_package, CParser = _import()
_error, _nodes, _tokens = sys.modules["yaml.error"], sys.modules["yaml.nodes"], sys.modules["yaml.tokens"]
YAMLError = _error.YAMLError
ScalarNode, SequenceNode, MappingNode = _nodes.ScalarNode, _nodes.SequenceNode, _nodes.MappingNode
ScalarToken = _tokens.ScalarToken
Resolver = sys.modules["yaml.resolver"].Resolver
_SafeConstructor = sys.modules["yaml.constructor"].SafeConstructor

if CParser is not None:

    class Composer(CParser, Resolver):  # type: ignore[misc,valid-type]
        """libyaml's parser and PyYAML's resolver: tokens, events and node trees (what
        ``yaml.CSafeLoader`` composes, without its constructor)."""

        def __init__(self, stream: Any) -> None:
            CParser.__init__(self, stream)
            Resolver.__init__(self)

    class SafeLoader(CParser, _SafeConstructor, Resolver):  # type: ignore[misc,valid-type]
        """``yaml.CSafeLoader``: plain data (no arbitrary Python objects)."""

        def __init__(self, stream: Any) -> None:
            CParser.__init__(self, stream)
            _SafeConstructor.__init__(self)
            Resolver.__init__(self)

else:  # pragma: no cover - PyYAML without libyaml
    Composer = SafeLoader = _package.SafeLoader


def compose_all(stream: Any, loader: Any = Composer) -> Iterator[Any]:
    """The node tree of each document of ``stream`` (``yaml.compose_all``)."""
    parser = loader(stream)
    try:
        while parser.check_node():
            yield parser.get_node()
    finally:
        parser.dispose()


def scan(stream: Any, loader: Any = Composer) -> Iterator[Any]:
    """The tokens of ``stream`` (``yaml.scan``)."""
    parser = loader(stream)
    try:
        while parser.check_token():
            yield parser.get_token()
    finally:
        parser.dispose()


def load(stream: Any) -> Any:
    """The data of the one document of ``stream`` (``yaml.safe_load`` with libyaml)."""
    parser = SafeLoader(stream)
    try:
        return parser.get_single_data()
    finally:
        parser.dispose()


def load_all(stream: Any) -> Iterator[Any]:
    """The data of each document of ``stream`` (``yaml.safe_load_all`` with libyaml)."""
    parser = SafeLoader(stream)
    try:
        while parser.check_data():
            yield parser.get_data()
    finally:
        parser.dispose()


# ---- the implicit tags of plain scalars, without the resolver's regular expressions --------------

_TAG = "tag:yaml.org,2002:"
STR, NULL, BOOL, INT, FLOAT = _TAG + "str", _TAG + "null", _TAG + "bool", _TAG + "int", _TAG + "float"
TIMESTAMP, MERGE, VALUE, YAML = _TAG + "timestamp", _TAG + "merge", _TAG + "value", _TAG + "yaml"
_DIGITS = frozenset("0123456789")
_DECIMAL_ = frozenset("0123456789_")
_BOOLS = frozenset("yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF".split())
_NULLS = frozenset(("~", "null", "Null", "NULL", ""))


def _all_in(s: str, chars: frozenset) -> bool:
    for c in s:
        if c not in chars:
            return False
    return True


def _sexagesimal(parts: list[str]) -> bool:
    """Whether each part is ``[0-5]?[0-9]``."""
    for p in parts:
        if not (len(p) == 1 and p in _DIGITS or len(p) == 2 and p[0] in "012345" and p[1] in _DIGITS):
            return False
    return True


def _is_bool(s: str) -> bool:
    return s in _BOOLS


def _is_null(s: str) -> bool:
    return s in _NULLS


def _is_int(s: str) -> bool:
    """``[-+]?`` and binary (``0b``), octal (``0``...), decimal, hexadecimal (``0x``) or
    sexagesimal (``190:20:30``) digits, ``_`` allowed among them."""
    b = s[1:] if s[:1] in ("-", "+") else s
    if not b:
        return False
    if b[0] == "0":
        if b[1:2] == "b":
            return len(b) > 2 and _all_in(b[2:], frozenset("01_"))
        if b[1:2] == "x":
            return len(b) > 2 and _all_in(b[2:], frozenset("0123456789abcdefABCDEF_"))
        return _all_in(b[1:], frozenset("01234567_"))  # (0 alone, or octal)
    if b[0] not in _DIGITS:
        return False
    head, *parts = b.split(":")
    return _all_in(head, _DECIMAL_) and _sexagesimal(parts)


def _exponent_ok(tail: str) -> bool:
    """Whether ``tail`` is ``[0-9_]*(?:[eE][-+][0-9]+)?``."""
    for i, c in enumerate(tail):
        if c in "eE":
            exp = tail[i + 1:]
            return len(exp) > 1 and exp[0] in "-+" and _all_in(exp[1:], _DIGITS)
        if c not in _DECIMAL_:
            return False
    return True


def _is_float(s: str) -> bool:
    """``[-+]?`` digits, a ``.`` and digits with an exponent, or sexagesimal with a fraction;
    ``.5``, ``[-+]?.inf``, ``.nan``."""
    if s in (".nan", ".NaN", ".NAN"):
        return True
    signed = s[:1] in ("-", "+")
    b = s[1:] if signed else s
    if b in (".inf", ".Inf", ".INF"):
        return True
    if b[:1] == ".":  # (unsigned only)
        return not signed and b[1:2] in _DIGITS and _exponent_ok(b[2:])
    if b[:1] not in _DIGITS:  # (also the empty string)
        return False
    head, dot, tail = b.partition(".")
    if not dot:
        return False
    if ":" not in head:
        return _all_in(head, _DECIMAL_) and _exponent_ok(tail)
    first, *parts = head.split(":")
    return _all_in(first, _DECIMAL_) and _sexagesimal(parts) and _all_in(tail, _DECIMAL_)


def _digits(s: str, i: int, least: int, most: int) -> int:
    """The index after ``least`` to ``most`` digits at ``i`` (greedy), or -1."""
    j = i
    while j < len(s) and j - i < most and s[j] in _DIGITS:
        j += 1
    return j if j - i >= least else -1


def _is_timestamp(s: str) -> bool:
    """``2001-12-14``, or ``2001-12-14t21:59:43.10-05:00`` (``T``, ``t`` or blanks between date
    and time; a fraction and a zone, ``Z`` or an offset after optional blanks, may follow)."""
    i = _digits(s, 0, 4, 4)
    if i < 0 or s[i:i + 1] != "-":
        return False
    if len(s) == 10 and s[7:8] == "-" and _all_in(s[5:7] + s[8:], _DIGITS):
        return True  # (the date alone: two-digit month and day)
    i = _digits(s, i + 1, 1, 2)
    if i < 0 or s[i:i + 1] != "-":
        return False
    i = _digits(s, i + 1, 1, 2)
    if i < 0 or i == len(s):
        return False
    if s[i] in "Tt":
        i += 1
    elif s[i] in " \t":
        while i < len(s) and s[i] in " \t":
            i += 1
    else:
        return False
    i = _digits(s, i, 1, 2)
    if i < 0 or s[i:i + 1] != ":":
        return False
    i = _digits(s, i + 1, 2, 2)
    if i < 0 or s[i:i + 1] != ":":
        return False
    i = _digits(s, i + 1, 2, 2)
    if i < 0:
        return False
    if s[i:i + 1] == ".":
        i += 1
        while i < len(s) and s[i] in _DIGITS:
            i += 1
    if i == len(s):
        return True
    while i < len(s) and s[i] in " \t":
        i += 1
    if s[i:] == "Z":
        return True
    if s[i:i + 1] not in ("-", "+"):
        return False
    i = _digits(s, i + 1, 1, 2)
    if i < 0:
        return False
    if i < len(s) and s[i] == ":":
        i = _digits(s, i + 1, 2, 2)
    return i == len(s)


# PyYAML's Resolver: the first character of a plain scalar -> its implicit types, tried in order
# (``Resolver.yaml_implicit_resolvers``; tests/core/test_libyaml.py holds them to it)
_IMPLICIT: dict[str, tuple[tuple[str, Any], ...]] = {}
for _tag, _test, _firsts in (
        (BOOL, _is_bool, "yYnNtTfFoO"), (FLOAT, _is_float, "-+0123456789."), (INT, _is_int, "-+0123456789"),
        (MERGE, "<<".__eq__, "<"), (NULL, _is_null, ["~", "n", "N", ""]), (TIMESTAMP, _is_timestamp, "0123456789"),
        (VALUE, "=".__eq__, "="), (YAML, ("!", "&", "*").__contains__, "!&*")):
    for _first in _firsts:
        _IMPLICIT[_first] = _IMPLICIT.get(_first, ()) + ((_tag, _test),)
del _tag, _test, _firsts, _first


def plain_tag(value: str) -> str:
    """The tag PyYAML's ``Resolver`` gives a plain scalar (YAML 1.1's implicit types: null, bool,
    int, float, timestamp, merge, value; else str), decided without its regular expressions:
    compiling them cost 1-3 M instructions each, the first time a file holds a name, a number or
    a boolean (benchmarks/README.md, issue 31's seventh pass). As the expressions' ``$`` does, a
    final line break is not part of what is matched."""
    tests = _IMPLICIT.get(value[:1])
    if tests is None:
        return STR
    core = value[:-1] if value.endswith("\n") else value
    for tag, test in tests:
        if test(core):
            return tag
    return STR
