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
