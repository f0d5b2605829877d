"""The ``vllm-lint`` program (console script and ``python -m vllm_lint``).

A plain lint command line is read by :func:`vllm_lint.cli.lint_command.parse_argv` and run without
importing click; every other command line goes to the click application in ``vllm_lint.cli.app``.
Either way the process then ends at once (:func:`_exit_now`).
"""

from __future__ import annotations

import os
import sys


def console() -> None:
    _own_modules_first()
    from ..record import fewer_young_collections

    fewer_young_collections()  # (until the end of start-up: record.settle_collections)
    try:
        _run(sys.argv[1:])
    except SystemExit as e:
        _exit_now(e.code)
        raise


def _own_modules_first() -> None:
    """Load the rest of vllm_lint's modules through :class:`_OwnModules`, ahead of the import
    system's finders.

    A one-file lint imports ~100 of vllm_lint's modules, and the import system's own search costs
    each ~0.15 M instructions before its code is even read (every finder of ``sys.meta_path`` asked
    in turn, the folder's ``FileFinder``, the spec, the paths of the source and of its ``.pyc``, a
    file object to read it): about half of what importing a small module costs
    (benchmarks/README.md, issue 31's sixth pass). Not with ``-O`` or a ``PYTHONPYCACHEPREFIX``
    (other ``.pyc`` names: the import system's way)."""
    if sys.flags.optimize or sys.pycache_prefix is not None or not sys.implementation.cache_tag:
        return
    if not any(isinstance(f, _OwnModules) for f in sys.meta_path):
        sys.meta_path.insert(0, _OwnModules())


def _run(argv: list[str]) -> None:
    from .lint_command import EXIT_ERROR, EXIT_FINDINGS, Exit, echo, execute, parse_argv

    # shell completion (``_VLLM_LINT_COMPLETE=bash_source``) is click's, as is anything unusual
    completing = any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ)
    values = None if completing else parse_argv(argv)
    if values is None:
        from ..record import settle_collections
        from .app import run

        settle_collections()
        run()
        return
    try:
        code = execute(**values)
    except Exit as e:
        code = e.code
    except KeyboardInterrupt:
        echo("vllm-lint: interrupted", err=True)
        code = EXIT_ERROR
    except BrokenPipeError:
        # as click: the reader went away (``| head``); say nothing more, exit 1
        _silence_stdout()
        code = EXIT_FINDINGS
    sys.exit(code)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _exit_now(code: object) -> None:
    """End the process without the interpreter's teardown when nothing depends on it.

    Freeing every module and object at exit (the release file's dicts, the grammar, ~250 modules)
    costs about 9 ms CPU, an eighth of a one-file lint (benchmarks/README.md). Output is flushed
    first. The lint's own workers are forked and reaped before this (``vllm_lint.pipeline.parallel``); a
    process with ``multiprocessing`` loaded or other threads running, or under coverage, exits
    normally (their atexit handlers matter), and so does any exit that is not a plain code."""
    if code is not None and not isinstance(code, int):
        return
    if "multiprocessing" in sys.modules or "coverage" in sys.modules:
        return
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return  # a closed or broken pipe: let the normal exit report it as before
    os._exit(code or 0)


# -- vllm_lint's own modules, found and loaded without the import system's search

import _frozen_importlib  # noqa: E402  (the import system itself: loaded at every start-up)
import _frozen_importlib_external  # noqa: E402
import _imp  # noqa: E402
import marshal  # noqa: E402

_PACKAGE = __name__.split(".", 1)[0]  # "vllm_lint"
# and the packages whose submodules a one-file lint imports after it starts (PyYAML's ~17, json's 3)
_PACKAGES = frozenset((_PACKAGE, "yaml", "json"))


class _Loader(_frozen_importlib_external.SourceFileLoader):
    """The import system's loader of a module's source (its ``get_source``, resources, bytecode
    writing: all inherited), whose ``get_code`` reads the ``.pyc`` the install wrote, checked as the
    import system checks it (magic number, a timestamp ``.pyc`` of the source's mtime and size),
    with ``os`` calls; anything else (no ``.pyc``, a stale or hash-based one) goes the import
    system's way, which compiles the source and writes the ``.pyc`` as before."""

    def __init__(self, fullname: str, path: str, cached: str) -> None:
        super().__init__(fullname, path)
        self.cached = cached

    def create_module(self, spec):
        """The module the import system would make, with the ``__file__`` and ``__cached__`` it
        sets next (``_init_module_attrs``: it asks for each first, and on a new module each miss
        formats an ``AttributeError`` it drops, ~2k instructions, twice per module)."""
        module = type(sys)(spec.name)
        module.__file__ = spec.origin
        module.__cached__ = spec.cached
        return module

    def get_code(self, fullname: str):
        try:
            st = os.stat(self.path)
            fd = os.open(self.cached, os.O_RDONLY)
            try:
                data = os.read(fd, os.fstat(fd).st_size + 1)
            finally:
                os.close(fd)
        except OSError:
            return super().get_code(fullname)
        if (len(data) < 16 or data[:4] != _frozen_importlib_external.MAGIC_NUMBER
                or data[4:8] != b"\0\0\0\0"  # (flags 0: a timestamp .pyc)
                or int.from_bytes(data[8:12], "little") != int(st.st_mtime) & 0xFFFFFFFF
                or int.from_bytes(data[12:16], "little") != st.st_size & 0xFFFFFFFF):
            return super().get_code(fullname)
        code = marshal.loads(memoryview(data)[16:])
        _imp._fix_co_filename(code, self.path)
        return code


class _OwnModules:
    """A ``sys.meta_path`` finder of the submodules of vllm_lint (and of the packages in
    ``_PACKAGES``): ``name.py``, or the package ``name/__init__.py``, in the folder of the parent
    package (whose ``__path__`` says where it is: a regular or an editable install, or a checkout),
    each folder listed once. A name it does not find there, or that an extension module of the folder
    also answers to (the import system would load that first), or a namespace package, is left to the
    import system's finders."""

    def __init__(self) -> None:
        self._listings: dict[str, frozenset[str]] = {}
        self._extensions: dict[str, frozenset[str]] = {}

    def _listing(self, folder: str) -> frozenset[str]:
        """The folder's entries, and the names of its extension modules (``name.<tag>.so``)."""
        names = self._listings.get(folder)
        if names is None:
            try:
                entries = os.listdir(folder)
            except OSError:
                entries = []
            names = frozenset(entries)
            extensions = frozenset(n.split(".", 1)[0] for n in entries if n.endswith((".so", ".pyd")))
            self._listings[folder] = names
            self._extensions[folder] = extensions
        return names

    def find_spec(self, fullname: str, path=None, target=None):
        parent, _, name = fullname.rpartition(".")
        if parent.partition(".")[0] not in _PACKAGES:
            return None
        paths = getattr(sys.modules.get(parent), "__path__", None)
        if path is not None:
            paths = path
        if type(paths) is not list or len(paths) != 1:
            return None
        folder = paths[0]
        names = self._listing(folder)
        if name in self._extensions[folder]:
            return None
        here = folder + os.sep + name
        tag = sys.implementation.cache_tag
        if name in names and "__init__.py" in self._listing(here):
            origin = here + os.sep + "__init__.py"
            cached = here + os.sep + "__pycache__" + os.sep + f"__init__.{tag}.pyc"
            package = True
        elif name + ".py" in names:
            origin = here + ".py"
            cached = folder + os.sep + "__pycache__" + os.sep + f"{name}.{tag}.pyc"
            package = False
        else:
            return None
        spec = _frozen_importlib.ModuleSpec(fullname, _Loader(fullname, origin, cached), origin=origin,
                                            is_package=package)
        if package:
            spec.submodule_search_locations = [here]
        spec.has_location = True
        spec.cached = cached
        return spec

    def invalidate_caches(self) -> None:
        self._listings.clear()
        self._extensions.clear()
