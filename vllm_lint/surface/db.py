"""Loading the flag database: one release's surface plus the cross-release timeline.

A lint run loads ``index.json`` (every name ever accepted, with version ranges) and the one
release file it checks against; everything else (``flags show``, ``flags diff``, audits) loads
more release files on demand. See ``flag_db/README.md`` for the file formats.

Both files are read in pieces (``dbfile``) where their checksums say they are the bytes
``compile_index`` certified: the index's tables one entry at a time, the release's sections and
option records as a lint asks for them. Any other file is decoded whole and checked, as before.
The load path names directories with strings (``os.path``): ``pathlib`` is imported only where
a caller asks for a ``Path`` (``default_db_path``, ``Database.path``) or a database is written.
"""

from __future__ import annotations

import bisect
import gc
import os
import sys
from functools import cached_property

from ..record import lazy_json as json  # (json.loads without the json package: record.json_loads)

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Iterator, Optional
    from pathlib import Path

    from .plugins import PluginIndex

from ..record import Record
from ..wrapper_options import WRAPPERS
from . import dbfile
from .version import InvalidVersion, Version  # not packaging.version: start-up cost (version.py)

DB_ENV_VAR = "VLLM_LINT_DB"


class DatabaseError(Exception):
    """The database is missing, unreadable or inconsistent (exit code 2)."""


class UnknownVersion(DatabaseError):
    """A version the database does not cover."""


def _as_path(p: str) -> "Path":
    from pathlib import Path

    return Path(p)


def _dir_name(p: Any) -> str:
    """``p`` spelled as ``str(pathlib.Path(p))`` spells it (error messages name files the same way
    as before), without importing pathlib on POSIX: repeated and trailing separators and ``.``
    parts dropped."""
    p = os.fspath(p)
    if os.sep != "/" or os.altsep or not isinstance(p, str):
        return str(_as_path(p))
    lead = "//" if p.startswith("//") and not p.startswith("///") else "/" if p.startswith("/") else ""
    return (lead + "/".join(x for x in p.split("/") if x and x != ".")) or "."


def default_db_path() -> "Path":
    """The database a command uses without ``--db``: ``VLLM_LINT_DB``; else the user's database
    (``db update`` from an install writes it, :func:`user_db_path`) where it is current over the
    shipped one; else the shipped one."""
    return _as_path(_default_db_dir())


def _default_db_dir() -> str:
    override = os.environ.get(DB_ENV_VAR)
    if override:
        return _dir_name(override)
    shipped = _shipped_db_dir()
    user = _user_db_dir()
    if user_db_state(user, shipped) == "current":
        return user
    return shipped


def shipped_db_path() -> "Path":
    """The database that comes with vllm-lint (the package's ``vllm_lint.flag_db``, or ``flag_db/``
    of a source checkout)."""
    return _as_path(_shipped_db_dir())


def _shipped_db_dir() -> str:
    # an install keeps the package vllm_lint.flag_db beside this one (what its import spec names,
    # without importing importlib.util); else the package's directory from its import spec
    # (importlib.resources costs ~4 ms of start-up)
    installed = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "flag_db")
    if os.path.isfile(os.path.join(installed, "__init__.py")):
        return _dir_name(installed)
    import importlib.util

    spec = importlib.util.find_spec("vllm_lint.flag_db")
    if spec is None:
        # a source checkout on sys.path, not installed: the database at the repository's root
        here = _checkout_db()
        if os.path.isdir(here):
            return _dir_name(here)
        raise DatabaseError(f"no flag database: vllm_lint.flag_db is not installed and {here} does not "
                            f"exist; install vllm-lint or set {DB_ENV_VAR} to a database directory")
    for loc in spec.submodule_search_locations or []:
        if os.path.isdir(loc):
            return _dir_name(loc)
    from importlib.resources import files

    return _dir_name(str(files("vllm_lint.flag_db")))


#: the user's database: releases ``db update`` added over the shipped one (``base.json`` names it)
USER_DB_ENV_VAR = "VLLM_LINT_DATA_DIR"
BASE_FILE = "base.json"


def user_db_path() -> "Path":
    """``<user data dir>/flag_db``: ``$VLLM_LINT_DATA_DIR/flag_db``, else the platform's data
    directory (``$XDG_DATA_HOME/vllm-lint/flag_db``, ``~/.local/share/vllm-lint/flag_db`` on Linux)."""
    return _as_path(_user_db_dir())


def _user_db_dir() -> str:
    root = os.environ.get(USER_DB_ENV_VAR)
    if root:
        return _dir_name(os.path.join(root, "flag_db"))
    if os.name == "posix" and not sys.platform.startswith("darwin"):
        # what platformdirs answers on Linux and the BSDs, without importing it on every start
        xdg = os.environ.get("XDG_DATA_HOME", "").strip()
        base = xdg if xdg and os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".local", "share")
        return _dir_name(os.path.join(base, "vllm-lint", "flag_db"))
    import platformdirs

    return _dir_name(os.path.join(platformdirs.user_data_dir("vllm-lint"), "flag_db"))


def shipped_fingerprint(shipped: Any) -> Optional[str]:
    """The sha256 of the shipped ``index.json``: a user database is current only over the exact
    shipped database it was compiled against."""
    import hashlib

    try:
        with open(os.path.join(shipped, "index.json"), "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def user_db_state(user: Any, shipped: Any) -> str:
    """"absent" (no user database), "current" (compiled over this shipped database), "stale"
    (over another one: vllm-lint was upgraded since; ``db update`` rebuilds it) or "broken"."""
    base_file = os.path.join(user, BASE_FILE)
    if not os.path.isfile(base_file):
        return "absent"
    try:
        with open(base_file, "rb") as f:
            base = json.loads(f.read())
    except (OSError, ValueError):
        return "broken"
    if not isinstance(base, dict) or not os.path.isfile(os.path.join(user, "index.json")):
        return "broken"
    return "current" if base.get("shipped_index_sha256") == shipped_fingerprint(shipped) else "stale"


def _checkout_db() -> str:
    """Where a source checkout keeps the database: ``flag_db/`` beside the ``vllm_lint`` package."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))), "flag_db")


# --------------------------------------------------------------------------- release surface


#: the string methods a release's ``transform`` may name, with their argument counts (the
#: extractor records no other)
WORD_METHODS = {"lower": 0, "upper": 0, "casefold": 0, "strip": 0, "replace": 2}


class Option(Record):
    """One argparse action of the serve parser at one release."""

    __slots__ = ("name", "aliases", "negations", "hidden", "dest", "kind", "type", "optional", "nargs", "choices",
                 "default", "default_computed", "group", "config", "deprecated", "transform",
                 "kvs_fallback", "class_at_start", "choices_vary", "deprecated_values", "absent_from_serve",
                 "choices_platform")

    def __init__(self, name: str, aliases: list[str], negations: list[str], hidden: list[str], dest: str, kind: str,
                 type: Optional[str], optional: bool, nargs: Any, choices: Optional[list[Any]], default: Any,
                 default_computed: bool, group: Optional[str], config: Optional[str],
                 deprecated: Optional[dict[str, Any]], transform: Optional[list[list[str]]] = None,
                 kvs_fallback: bool = False, class_at_start: bool = False,
                 deprecated_values: Optional[dict[str, dict[str, Any]]] = None,
                 choices_platform: bool = False) -> None:
        self.name = name
        self.aliases = aliases
        self.negations = negations
        self.hidden = hidden
        self.dest = dest
        self.kind = kind
        self.type = type
        self.optional = optional
        self.nargs = nargs
        self.choices = choices
        self.default = default
        self.default_computed = default_computed
        self.group = group
        self.config = config
        self.deprecated = deprecated
        self.transform = transform
        self.kvs_fallback = kvs_fallback
        self.class_at_start = class_at_start
        self.choices_vary: list[Any] = []
        #: value -> {"successor": value or None}: choices the release deprecates (flag_db/README.md)
        self.deprecated_values: dict[str, dict[str, Any]] = dict(deprecated_values or {})
        #: added only when argv does not name `serve`: the api_server module's, not `vllm serve`'s
        self.absent_from_serve = False
        #: the platform adds choices of its own to ``choices`` (0.28+ --mm-processor-device: its
        #: device type): a value outside them is not known to be refused
        self.choices_platform = choices_platform

    @property
    def strings(self) -> list[str]:
        return [self.name, *self.aliases]

    @classmethod
    def from_record(cls, r: dict[str, Any]) -> "Option":
        # the fields set directly, not through __init__'s keywords: a surface builds hundreds
        # of options, and this halves the cost of each
        o = object.__new__(cls)
        get = r.get
        o.name = r["name"]
        o.aliases = list(get("aliases") or [])
        o.negations = list(get("negations") or [])
        o.hidden = list(get("hidden") or [])
        o.dest = get("dest") or r["name"].lstrip("-").replace("-", "_")
        o.kind = get("kind") or "valued"
        o.type = get("type")
        o.optional = bool(get("optional"))
        o.nargs = get("nargs")
        o.choices = get("choices")
        o.default = get("default")
        o.default_computed = bool(get("default_computed"))
        o.group = get("group")
        o.config = get("config")
        o.deprecated = get("deprecated")
        o.transform = get("transform")
        o.kvs_fallback = bool(get("kvs_fallback"))
        o.class_at_start = bool(get("class_at_start"))
        o.choices_vary = list(get("choices_vary") or [])
        o.deprecated_values = dict(get("deprecated_values") or {})
        o.absent_from_serve = bool(get("absent_from_serve"))
        o.choices_platform = bool(get("choices_platform"))
        return o

    def as_typed(self, word: str) -> str:
        """``word`` as the option's type hands it to argparse's choice check: the string methods
        of ``transform`` (``--moe-backend``'s type lower-cases and turns ``-`` into ``_``)."""
        for method, *args in self.transform or ():
            if WORD_METHODS.get(method) == len(args):
                word = getattr(word, method)(*args)
        return word

    def takes_value(self, string: str) -> bool:
        if string in self.negations:
            return False
        return self.kind not in ("switch", "negatable")


class ServeCheck(Record):
    """One start-up check of ``validate_parsed_serve_args``: ``kind`` "requires" (``a`` set needs
    ``b`` set) or "conflicts" (``a`` and ``b`` both set are refused), ``a`` and ``b`` being dests
    and ``option_a`` and ``option_b`` the release's option names for them; or "when": refused
    where every test of ``when`` holds (``{"dest", "test", "option", "value" | "values" |
    "dest2" + "option2"}``, flag_db/README.md), ``a`` / ``option_a`` its first option's."""

    __slots__ = ("kind", "a", "b", "option_a", "option_b", "when", "cls")

    def __init__(self, kind: str, a: str, b: str, option_a: str, option_b: str,
                 when: Optional[list[dict[str, Any]]] = None, cls: Optional[str] = None) -> None:
        self.kind = kind
        self.a = a
        self.b = b
        self.option_a = option_a
        self.option_b = option_b
        self.when = when
        self.cls = cls  # the config class that refuses, for config_checks


class _deferred:
    """An attribute that a surface read from its file in pieces computes when first asked, and
    that a surface built from a whole record sets in ``__init__``. (Not a ``cached_property``:
    ``Surface.read_by`` copies these into its views as it copies what ``__init__`` sets.)"""

    __slots__ = ("fn", "name")

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn
        self.name = fn.__name__

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


class Surface:
    """What one vLLM release accepts."""

    def __init__(self, record: dict[str, Any]):
        self.record = record
        self.version: str = record["version"]
        every = [Option.from_record(o) for o in record.get("options", [])]
        self.options: list[Option] = [o for o in every if not o.absent_from_serve]
        #: options a program other than `vllm serve` gets (0.9.0's `--model`: added only when
        #: argv does not name `serve`); in the view ``read_by`` gives such a program
        self.absent_from_serve: list[Option] = [o for o in every if o.absent_from_serve]
        self.by_string: dict[str, Option] = {}
        for opt in self.options:
            for s in opt.strings:
                self.by_string.setdefault(s, opt)
        self.by_dest: dict[str, Option] = {}
        for opt in self.options:
            self.by_dest.setdefault(opt.dest, opt)
        self.env: dict[str, dict[str, Any]] = record.get("env", {}) or {}
        #: VLLM_* names whose presence makes start-up raise (``env_refused``, 0.34+; flag_db/README.md)
        self.env_refused: dict[str, dict[str, Any]] = record.get("env_refused", {}) or {}
        self.build_env: frozenset[str] = frozenset(record.get("build_env", []) or [])
        self.engine_args: dict[str, dict[str, Any]] = record.get("engine_args", {}) or {}
        self.async_engine_args: list[str] = record.get("async_engine_args", []) or []
        self.llm_params: list[str] = record.get("llm_params", []) or []
        self.json_configs: dict[str, dict[str, Any]] = record.get("json_configs", {}) or {}
        self.positionals: list[dict[str, Any]] = record.get("positionals", []) or []

    @classmethod
    def from_file(cls, release: "_ReleaseFile") -> "Surface":
        """The surface of a certified release file, read in pieces: the attributes ``__init__``
        sets are computed when first asked (``_deferred``), each from its part of the file;
        ``by_string`` and ``by_dest`` find one option record at a time (``_Options``) and the
        large tables one entry at a time (``_Table``)."""
        s = object.__new__(cls)
        s.record = release
        s.version = release["version"]
        return s

    # the attributes of a surface read in pieces (``from_file``); each as ``__init__`` computes it
    @_deferred
    def options(self) -> list[Option]:
        return [o for o in self.record.every_option() if not o.absent_from_serve]

    @_deferred
    def absent_from_serve(self) -> list[Option]:
        if not any(True for _ in self.record.doc.elements_with("options", b'"absent_from_serve": true')):
            return []
        return [o for o in self.record.every_option() if o.absent_from_serve]

    @_deferred
    def by_string(self) -> "_Options":
        return _Options(self.record, by_dest=False)

    @_deferred
    def by_dest(self) -> "_Options":
        return _Options(self.record, by_dest=True)

    @_deferred
    def env(self) -> "_Table":
        return _Table(self.record, "env")

    @_deferred
    def env_refused(self) -> dict[str, dict[str, Any]]:
        return self.record.get("env_refused", {}) or {}

    @_deferred
    def build_env(self) -> frozenset[str]:
        return frozenset(self.record.get("build_env", []) or [])

    @_deferred
    def engine_args(self) -> "_Table":
        return _Table(self.record, "engine_args")

    @_deferred
    def async_engine_args(self) -> list[str]:
        return self.record.get("async_engine_args", []) or []

    @_deferred
    def llm_params(self) -> list[str]:
        return self.record.get("llm_params", []) or []

    @_deferred
    def json_configs(self) -> "_Table":
        return _Table(self.record, "json_configs")

    @_deferred
    def positionals(self) -> list[dict[str, Any]]:
        return self.record.get("positionals", []) or []

    @cached_property
    def v(self) -> Version:
        """The release's version, parsed once (the era checks below ask it per launch)."""
        return Version(self.version)

    def lookup(self, string: str) -> Optional[Option]:
        return self.by_string.get(string)

    @cached_property
    def options_by_dest(self) -> dict[str, tuple[Option, ...]]:
        """Every option of each destination, in the release's order (``by_dest`` keeps the first):
        built once, for rules that ask about many destinations of each launch."""
        out: dict[str, list[Option]] = {}
        for opt in self.options:
            out.setdefault(opt.dest, []).append(opt)
        return {d: tuple(opts) for d, opts in out.items()}

    @cached_property
    def long_strings(self) -> list[str]:
        return sorted(s for s in self.by_string if s.startswith("--"))

    def prefix_matches(self, prefix: str) -> list[str]:
        """Long option strings that argparse's abbreviation matching would accept for ``prefix``."""
        if "long_strings" not in self.__dict__ and isinstance(self.by_string, _Options):
            # a surface read in pieces: the few records whose bytes hold the prefix
            found = self.by_string.strings_starting(prefix)
            if found is not None:
                return sorted(s for s in found if s != prefix and s.startswith("--"))
        strings = self.long_strings  # sorted: the matches are one run, found by bisection
        out = []
        for i in range(bisect.bisect_left(strings, prefix), len(strings)):
            s = strings[i]
            if not s.startswith(prefix):
                break
            if s != prefix:
                out.append(s)
        return out

    def json_config_for(self, option: Option) -> Optional[dict[str, Any]]:
        return self.json_configs.get(option.dest)

    # Parser behaviour that changed by era (docs/cli-history.md, parser behaviour by release); version-gated here,
    # in one place, rather than guessed per rule.
    @cached_property
    def underscores_normalised(self) -> bool:
        return self.v >= Version("0.5.1")

    @cached_property
    def dotted_json(self) -> bool:
        return self.v >= Version("0.9.0")

    @cached_property
    def dotted_json_short(self) -> bool:
        """Dotted keys of single-dash options (``-O.level=3``): ``parse_args`` reads
        ``startswith("-") and "." in`` from 0.9.2; 0.9.0-0.9.1 read ``--`` words only, and argparse
        gives ``-O`` the rest of the word (0.9.0's real parser: `invalid <lambda> value: '.level=3'`)."""
        return self.v >= Version("0.9.2")

    @cached_property
    def dotted_keys_dashed(self) -> bool:
        """0.9.0 and 0.9.0.1 rewrite ``_`` to ``-`` in the whole ``--opt.key_name`` word, keys
        included, so a config class gets the key ``key-name`` and refuses it (0.9.0's real parser:
        `--kv-transfer-config.kv_role x` is `invalid _optional_type value: '{"kv-role": "x"}'`);
        0.9.1 rewrites only the part before the first ``.``."""
        return Version("0.9.0") <= self.v < Version("0.9.1")

    @cached_property
    def o_flag(self) -> str:
        """How ``-O`` is read: "none", "alias" (of --compilation-config) or "optimization-level"."""
        if "-O" in self.by_string:
            return "alias"
        if self.v >= Version("0.12.0"):
            return "optimization-level"
        return "none"

    @cached_property
    def o_dotted_is_cc(self) -> bool:
        """0.12.x reads ``-O.<key>`` as ``-cc.<key>`` with a deprecation warning (its
        ``parse_args``; 0.13.0 reads the word as ``--optimization-level .<key>``, refused)."""
        return self.o_flag == "optimization-level" and Version("0.12.0") <= self.v < Version("0.13.0")

    def rewrites(self, string: str) -> Optional[str]:
        """The option ``parse_args`` turns ``string`` into before argparse sees it, where the
        string is no action of the parser: ``-O`` is ``--optimization-level`` from 0.12 (``-O3``,
        ``-O 3``, ``-O=3``; a bare ``-O`` is refused), checked with the real parsers of 0.27.0
        and 0.34.0."""
        return "--optimization-level" if string == "-O" and self.o_flag == "optimization-level" else None

    @cached_property
    def o_level_key(self) -> Optional[str]:
        """The dotted key that ``parse_args`` rewrites an attached ``-O<x>`` / ``-O=<x>`` (and
        ``-O <0-3>``) into, or None: ``-O.level=<x>`` from 0.9.2, ``-O.mode=<x>`` in 0.11.1-0.11.2;
        0.12 turned ``-O`` into ``--optimization-level``. The keys merge like any dotted key
        (``-Ox -O4`` is ``{"level": 4}``)."""
        if self.o_flag != "alias" or not Version("0.9.2") <= self.v < Version("0.12.0"):
            return None
        return "mode" if self.v >= Version("0.11.1") else "level"

    @cached_property
    def has_serve(self) -> bool:
        return self.v >= Version("0.5.2")

    @cached_property
    def serve_model_option(self) -> str:
        """What ``vllm serve --model X`` does, measured with the real parsers
        (tools/crosscheck/difftest.py): "option" (an ordinary option; the positional model is
        still required), "refused" (``parse_args`` raises: give the model as the positional),
        "moved" (``parse_args`` moves it to the positional slot; a positional model as well is
        then left over). The refusal begins at 0.8.3 (``FlexibleArgumentParser.parse_args`` in
        vllm/utils.py of 0.8.3 and 0.8.4, measured with 0.8.3's real parser; 0.8.2's serve command
        raises only when it runs, after parsing). The move, with its warning, begins at 0.11.1
        (vllm/utils/argparse_utils.py; 0.11.0's vllm/utils/__init__.py still raises)."""
        if self.v < Version("0.8.3"):
            return "option"
        if self.v < Version("0.11.1"):
            return "refused"
        return "moved"

    @cached_property
    def serve_model_option_deprecated(self) -> bool:
        """From 0.11.1 ``vllm serve --model X`` logs that ``--model`` will be removed and the
        model belongs in the positional slot (read in the sdists of 0.11.1, 0.11.2, 0.12.0,
        0.33.0 and 0.34.0)."""
        return self.serve_model_option == "moved"

    @cached_property
    def optimization_levels(self) -> Optional[list[int]]:
        """The levels ``VllmConfig`` accepts for ``--optimization-level`` / ``-O<n>`` (from 0.12;
        ``era.optimization_levels``): the parser takes any word, start-up refuses the others."""
        return (self.record.get("era") or {}).get("optimization_levels")

    @cached_property
    def served_name_needs_leading_model(self) -> bool:
        """From 0.17.0 ``parse_args`` of ``vllm serve`` raises when its first word is an option
        (after moving ``--model X`` to the front), no ``--config`` is given and a word is
        ``--served-model-name`` / ``--served_model_name`` (with or without ``=``): the model must
        come first. Read in every sdist; refused by the real parsers of 0.20.0-0.33.0, accepted
        by 0.13.0's."""
        return self.v >= Version("0.17.0")

    @cached_property
    def deprecated_entries(self) -> frozenset[str]:
        """The ``python -m`` launch entries this release deprecates (``"openai.api_server"`` from
        0.29.0: the module's ``__main__`` warns and points to ``vllm serve``), from
        ``era.deprecated_entries`` (``scrape/entry_deprecations.py``)."""
        return frozenset((self.record.get("era") or {}).get("deprecated_entries") or ())

    @cached_property
    def image_runs(self) -> Optional[str]:
        """What the ``vllm/vllm-openai`` image of this release runs its arguments with, from the
        ``ENTRYPOINT`` of vLLM's own Dockerfile (``era.image_entrypoint``): "vllm serve",
        "openai.api_server", or None when the release file does not say."""
        words = (self.record.get("era") or {}).get("image_entrypoint") or []
        if words[:2] == ["vllm", "serve"]:
            return "vllm serve"
        if "vllm.entrypoints.openai.api_server" in words:
            return "openai.api_server"
        return None

    def image_program(self, entry: str) -> Optional[str]:
        """The vLLM program the arguments of a ``docker:IMAGE`` launch go to: a vendor image's own
        (``container.SERVER_IMAGES``: Red Hat's runs the api_server module at every release), else
        vLLM's image at this release (:attr:`image_runs`). None for other entries."""
        if not entry.startswith("docker:"):
            return None
        from ..container import server_image

        vendor = server_image(entry[len("docker:"):])
        return vendor.program if vendor is not None else self.image_runs

    def entry_has_positional_model(self, entry: str) -> bool:
        """Whether the words of a launch with this entry start with ``vllm serve``'s positional
        model: not for the api_server modules (``--model``), nor for a wrapper that says not
        (``wrapper_options.WRAPPERS``), nor for arguments to a vLLM image whose entrypoint at this
        release is the api_server module."""
        if entry in ("openai.api_server", "api_server"):
            return False
        wrapper = WRAPPERS.get(entry)
        if wrapper is not None:
            return wrapper.positional_model
        if entry.startswith("docker:"):
            return self.image_program(entry) != "openai.api_server"
        return True

    def read_by(self, entry: str) -> "Surface":
        """This release's surface as the program of a launch with this entry reads its argv: the
        surface itself, or a view of it, one per kind, with its own memos:

        * for a wrapper that hands vLLM's parser its argv without vLLM's rewriting
          (``Wrapper.vllm_preprocessing`` false), none of it: ``--a_b`` is not ``--a-b``, there
          are no dotted JSON keys and no ``-O`` rewrite (an ``-O`` alias of
          ``--compilation-config`` stays: argparse itself reads it);
        * for a program other than ``vllm serve`` (the api_server modules, wrappers), the options
          added only when argv does not name ``serve`` (``absent_from_serve``: 0.9.0's
          ``--model``)."""
        if self.__dict__.get("_is_view"):
            return self
        wrapper = WRAPPERS.get(entry)
        unpreprocessed = wrapper is not None and not wrapper.vllm_preprocessing
        without_serve = bool(self.absent_from_serve) and not self.runs_serve(entry)
        if not unpreprocessed and not without_serve:
            return self
        key = f"_view_{int(unpreprocessed)}{int(without_serve)}"
        view = self.__dict__.get(key)
        if view is None:
            view = object.__new__(Surface)
            view.__dict__.update((k, v) for k, v in self.__dict__.items()
                                 if not k.startswith("_") and not isinstance(getattr(Surface, k, None), cached_property))
            if unpreprocessed:
                view.o_flag = "alias" if self.o_flag == "alias" else "none"
                view.underscores_normalised = False
                view.dotted_json = False
                view.o_level_key = None  # parse_args' `-O<x>` to `-O.level=<x>`
            if without_serve:
                view.options = self.options + self.absent_from_serve
                view.by_string = dict(self.by_string)
                view.by_dest = dict(self.by_dest)
                for opt in self.absent_from_serve:
                    for s in opt.strings:
                        view.by_string.setdefault(s, opt)
                    view.by_dest.setdefault(opt.dest, opt)
                view.absent_from_serve = []
            view.__dict__["_is_view"] = True
            self.__dict__[key] = view
        return view

    def runs_serve(self, entry: str) -> bool:
        """Whether a launch with this entry is known to run ``vllm serve`` at this release."""
        return entry == "vllm serve" or self.image_program(entry) == "vllm serve"

    @cached_property
    def serve_checks(self) -> list[ServeCheck]:
        """The option pairs ``validate_parsed_serve_args`` refuses at this release, in source order
        (``serve_checks`` of the release file; none where the file predates it or the release
        has no such validator)."""
        sc = self.record.get("serve_checks") or {}
        out = []
        for c in sc.get("checks") or []:
            if c["kind"] == "when":
                first = next(t for t in c["when"] if t.get("option"))
                out.append(ServeCheck("when", first["dest"], "", first["option"], "", c["when"]))
            else:
                out.append(ServeCheck(c["kind"], c["dests"][0], c["dests"][1], c["options"][0], c["options"][1]))
        return out

    @cached_property
    def serve_value_checks(self) -> dict[str, dict]:
        """dest -> what ``validate_parsed_serve_args`` refuses in that option's value by itself
        (``serve_checks.values``: ``{option, object, values, keys}``; 0.33+'s
        ``--reasoning-effort-map``)."""
        return dict((self.record.get("serve_checks") or {}).get("values") or {})

    @cached_property
    def config_checks(self) -> list[ServeCheck]:
        """What the config classes plain options feed refuse when start-up builds them
        (``config_checks`` of the release file, "when" checks over options)."""
        out = []
        for c in self.record.get("config_checks") or []:
            first = next(t for t in c["when"] if t.get("option"))
            out.append(ServeCheck("when", first["dest"], "", first["option"], "", c["when"], c.get("class")))
        return out

    @cached_property
    def start_fields(self) -> dict[str, dict]:
        """dest -> what pydantic checks when start-up hands the option's value unchanged to a config
        class (``start_fields`` of the release file: ``class``, ``constraints``, ``choices``)."""
        if isinstance(self.record, _ReleaseFile):
            return _Table(self.record, "start_fields")  # type: ignore[return-value]
        return dict(self.record.get("start_fields") or {})

    @cached_property
    def device_id_checks(self) -> dict[str, dict]:
        """dest -> what start-up refuses in that option's device ids (``device_id_checks`` of the
        release file: ``items``, ``checks``); empty where the release has no such step."""
        return {c["dest"]: c for c in self.record.get("device_id_checks") or []}

    def validates_serve_args(self, entry: str) -> bool:
        """Whether a launch with this entry runs ``validate_parsed_serve_args`` right after parsing:
        ``vllm serve`` and the OpenAI api_server module where the release's entry calls it (the
        scraped ``serve_checks.entries``), and the arguments of a vLLM image whose entrypoint is
        one of them. Wrappers, ``LLM(...)`` and ``EngineArgs`` never do."""
        entries = (self.record.get("serve_checks") or {}).get("entries") or []
        if entry.startswith("docker:"):
            return self.image_program(entry) in entries
        return entry in entries

    @cached_property
    def kvs_empty_is_none(self) -> bool:
        """vLLM's ``nullable_kvs`` maps the empty string to None up to 0.8.4; from 0.8.5 only an
        ``optional_type`` around it does, and ``nullable_kvs('')`` refuses the missing ``=``
        (read in every sdist)."""
        return self.v < Version("0.8.5")

    @cached_property
    def compilation_from_cli(self) -> bool:
        """``--compilation-config`` / ``-O`` values go through ``CompilationConfig.from_cli`` (a
        level 0-3 or ``ast.literal_eval``; JSON at 0.9.0-0.9.1, ``compilation_from_cli_json``), not
        the option's JSON validation."""
        return Version("0.6.6") <= self.v < Version("0.9.2")

    @cached_property
    def compilation_from_cli_json(self) -> bool:
        """0.9.0-0.9.1's ``CompilationConfig.from_cli`` reads JSON (``json.loads``,
        ``validate_json``), not a Python literal: `{'level': 3}` is refused there (0.9.0's real
        parser)."""
        return Version("0.9.0") <= self.v < Version("0.9.2")

    def json_extra_keys_ignored(self, config: dict[str, Any]) -> bool:
        """Whether unknown keys in this JSON config option are dropped with no error: the value is
        validated by pydantic (``json_types_validated``) and the class does not forbid extra keys
        (``extra``, scraped)."""
        return self.json_types_validated(config) and config.get("extra") == "ignore"

    def json_types_validated(self, config: dict[str, Any]) -> bool:
        """Whether this JSON config option's value is validated by pydantic, field types
        included: a pydantic model in any release (``model`` of ``json_configs``), a dataclass from
        0.9.1 (``vllm/config.py`` makes its dataclasses pydantic's and ``arg_utils`` validates the
        JSON with ``TypeAdapter``); in 0.9.0 a plain dataclass was called with the keys and took
        any value."""
        return self._dataclasses_validated or config.get("model") == "pydantic"

    @cached_property
    def _dataclasses_validated(self) -> bool:
        return self.v >= Version("0.9.1")

    def json_kvs_fallback(self, option: Option) -> bool:
        """Whether a value of this JSON-typed option that does not look like an object
        (``^{.*}$``, one line) is read as comma-separated ``KEY=VALUE`` integers instead: vLLM's
        ``optional_type(json.loads)`` (0.8.5) and ``parse_type(json.loads)`` (0.9.x) fall back to
        ``nullable_kvs``; the extractor marks the options whose type is one of them
        (``kvs_fallback``), not a plain ``json.loads`` (``--allowed-origins``) nor a config class's
        own parser. Before 0.8.5 such options had the type ``nullable_kvs`` itself (type ``kvs``)."""
        return option.kvs_fallback

    @cached_property
    def positional_model_required(self) -> bool:
        """The serve parser's ``model_tag`` has no ``nargs="?"`` (before 0.8.5)."""
        return any(p.get("dest") == "model_tag" and p.get("nargs") is None for p in self.positionals)


#: a certified release file's option record (its bytes) -> its Option, for every release file
#: this process reads (``_ReleaseFile.every_option``)
_SHARED_OPTIONS: dict[bytes, Option] = {}


class _ReleaseFile:
    """A certified release file (``Database.surface``) read in pieces: the read-only mapping of its
    top-level keys that ``Surface.record`` is, each decoded when first asked, and its option
    records decoded and built one at a time (one ``Option`` per record, whoever asks)."""

    __slots__ = ("doc", "path", "_built", "_every")

    def __init__(self, doc: dbfile.Doc, path: str) -> None:
        self.doc = doc
        self.path = path
        self._built: dict[int, Option] = {}  # a record's offset in the file -> its option
        self._every: Optional[list[Option]] = None

    def corrupted(self, e: Exception) -> DatabaseError:
        return DatabaseError(f"{self.path}: corrupted release file ({type(e).__name__}: {e})")

    # ---- the mapping
    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self.doc.value(key, default)
        except ValueError as e:
            raise self.corrupted(e) from None

    def __getitem__(self, key: str) -> Any:
        v = self.get(key, dbfile.MISSING)
        if v is dbfile.MISSING:
            raise KeyError(key)
        return v

    def __contains__(self, key: object) -> bool:
        try:
            return isinstance(key, str) and self.doc.span(key) is not None
        except ValueError as e:
            raise self.corrupted(e) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.doc.spans)

    def __len__(self) -> int:
        return len(self.doc.spans)

    def keys(self) -> Iterable[str]:
        return self.doc.spans.keys()

    def values(self) -> list[Any]:
        return [self[k] for k in self.doc.spans]

    def items(self) -> list[tuple[str, Any]]:
        return [(k, self[k]) for k in self.doc.spans]

    def entry(self, key: str, name: bytes) -> Any:
        """One entry of a top-level table (``dbfile.Doc.entry``)."""
        try:
            return self.doc.entry(key, name)
        except ValueError as e:
            raise self.corrupted(e) from None

    # ---- the option records
    def option_at(self, start: int) -> Option:
        opt = self._built.get(start)
        if opt is None:
            try:
                opt = self._built[start] = Option.from_record(self.doc.element_at(start))
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                raise self.corrupted(e) from None
        return opt

    def every_option(self) -> list[Option]:
        """Every record's option, in the file's order (``Surface.__init__``'s ``every``)."""
        if self._every is None:
            # Each record's bytes are decoded, and its Option built, once per process: consecutive
            # releases share most records byte for byte (a certified file's records are
            # ``compile_index``'s layout, as ``element_at`` reads them), and an Option is not
            # changed after it is built.
            with _NoCollection():
                try:
                    texts = self.doc.element_texts("options")
                except ValueError as e:
                    raise self.corrupted(e) from None
                built = self._built
                shared = _SHARED_OPTIONS
                every = []
                for at, raw in texts:
                    opt = built.get(at)
                    if opt is None:
                        opt = shared.get(raw)
                        if opt is None:
                            try:
                                opt = shared[raw] = Option.from_record(json.loads(raw))
                            except (ValueError, KeyError, TypeError, AttributeError) as e:
                                raise self.corrupted(e) from None
                        built[at] = opt
                    every.append(opt)
                self._every = every
        return self._every

    def find_option(self, key: str, by_dest: bool) -> Optional[Option]:
        """The first option of ``vllm serve`` whose dest (``by_dest``) or one of whose strings is
        ``key``: what ``Surface.__init__``'s ``by_dest`` / ``by_string`` hold for it. The records
        whose bytes hold the key are decoded in order; certified files name every dest."""
        q = dbfile.quoted(key) if isinstance(key, str) else None
        if q is None:
            return None
        try:
            for at in self.doc.elements_with("options", b'"dest": ' + q if by_dest else q):
                opt = self.option_at(at)
                if not opt.absent_from_serve and (opt.dest == key if by_dest else key in opt.strings):
                    return opt
        except ValueError as e:
            raise self.corrupted(e) from None
        return None


class _ReadOnlyTable:
    """What a read-only mapping read in pieces answers from its whole table (``_whole``: built
    when first asked for every key)."""

    __slots__ = ()

    def _whole(self) -> dict[str, Any]:
        raise NotImplementedError

    def __iter__(self) -> Iterator[str]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())

    def keys(self) -> Iterable[str]:
        return self._whole().keys()

    def values(self) -> Iterable[Any]:
        return self._whole().values()

    def items(self) -> Iterable[tuple[str, Any]]:
        return self._whole().items()


class _Options(_ReadOnlyTable):
    """``by_string`` or ``by_dest`` of a surface read in pieces: a read-only mapping whose values
    are found in the release file as they are asked for (memoised). Asked for every key, or after
    ``SEARCHES`` searches (a tree of many launches), it builds the whole table as ``__init__``
    does and answers from it."""

    SEARCHES = 16
    #: records whose bytes hold a prefix, above which ``strings_starting`` gives up
    PREFIX_RECORDS = 24

    __slots__ = ("release", "by_dest", "memo", "whole")

    def __init__(self, release: _ReleaseFile, by_dest: bool) -> None:
        self.release = release
        self.by_dest = by_dest
        self.memo: dict[Any, Optional[Option]] = {}
        self.whole: Optional[dict[str, Option]] = None

    def get(self, key: Any, default: Any = None) -> Any:
        if self.whole is not None:
            return self.whole.get(key, default)
        memo = self.memo
        if key in memo:
            found = memo[key]
        elif len(memo) >= self.SEARCHES:
            return self._whole().get(key, default)
        else:
            found = memo[key] = self.release.find_option(key, self.by_dest)
        return default if found is None else found

    def __getitem__(self, key: Any) -> Option:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return self.get(key) is not None

    def _whole(self) -> dict[str, Option]:
        if self.whole is None:
            out: dict[str, Option] = {}
            for opt in self.release.every_option():
                if opt.absent_from_serve:
                    continue
                if self.by_dest:
                    out.setdefault(opt.dest, opt)
                else:
                    for s in opt.strings:
                        out.setdefault(s, opt)
            self.whole = out
        return self.whole

    def strings_starting(self, prefix: str) -> Optional[set[str]]:
        """The strings of ``vllm serve``'s options that start with ``prefix``, from the records whose
        bytes hold it; None where more than ``PREFIX_RECORDS`` do (ask the whole table)."""
        if self.whole is not None:
            return None
        q = dbfile.quoted(prefix)
        if q is None:
            return set()
        found: set[str] = set()
        for n, at in enumerate(self.release.doc.elements_with("options", q[:-1])):
            if n == self.PREFIX_RECORDS:
                return None
            opt = self.release.option_at(at)
            if not opt.absent_from_serve:
                found.update(s for s in opt.strings if s.startswith(prefix))
        return found


class _Table(_ReadOnlyTable):
    """A large table of a release file read in pieces (``env``, ``engine_args``, ``json_configs``,
    ``start_fields``): a read-only mapping whose entries are decoded when first asked
    (memoised); iterated, or after ``ENTRIES`` lookups, the whole table is decoded."""

    ENTRIES = 16

    __slots__ = ("release", "key", "memo", "whole")

    def __init__(self, release: _ReleaseFile, key: str) -> None:
        self.release = release
        self.key = key
        self.memo: dict[Any, Any] = {}
        self.whole: Optional[dict[str, Any]] = None

    def get(self, name: Any, default: Any = None) -> Any:
        if self.whole is not None:
            return self.whole.get(name, default)
        memo = self.memo
        if name in memo:
            v = memo[name]
        elif len(memo) >= self.ENTRIES:
            return self._whole().get(name, default)
        else:
            q = dbfile.quoted(name) if isinstance(name, str) else None
            v = memo[name] = dbfile.MISSING if q is None else self.release.entry(self.key, q)
        return default if v is dbfile.MISSING else v

    def __getitem__(self, name: Any) -> Any:
        v = self.get(name, dbfile.MISSING)
        if v is dbfile.MISSING:
            raise KeyError(name)
        return v

    def __contains__(self, name: object) -> bool:
        return self.get(name, dbfile.MISSING) is not dbfile.MISSING

    def __bool__(self) -> bool:
        if self.whole is not None:
            return bool(self.whole)
        return not self.release.doc.table_is_empty(self.key)

    def _whole(self) -> dict[str, Any]:
        if self.whole is None:
            self.whole = self.release.get(self.key, {}) or {}
        return self.whole


SERVE_TESTS = ("set", "unset", "none", "not_none", "<", "<=", ">", ">=", "==", "!=", "in", "not_in")


def _check_serve_tests(when: Any) -> None:
    """The shape of a "when" serve check's tests (flag_db/README.md)."""
    if not isinstance(when, list) or not when:
        raise TypeError("a 'serve_checks' check of kind 'when' has no list of tests")
    for t in when:
        if not isinstance(t, dict) or not isinstance(t.get("dest"), str) or t.get("test") not in SERVE_TESTS:
            raise TypeError("a 'serve_checks' test is not {dest, test, ...}")
        if t.get("option") is not None and not isinstance(t["option"], str):
            raise TypeError("a 'serve_checks' test's option is not a string")
        if t["test"] in ("in", "not_in") and not isinstance(t.get("values"), list):
            raise TypeError("a 'serve_checks' membership test has no list of values")
        if t["test"] in ("<", "<=", ">", ">=", "==", "!=") and "value" not in t and \
                not (isinstance(t.get("dest2"), str) and isinstance(t.get("option2"), str)):
            raise TypeError("a 'serve_checks' comparison has neither a value nor a second option")
    if not any(isinstance(t.get("option"), str) for t in when):
        raise TypeError("a 'serve_checks' check of kind 'when' tests no option")


def _check_release(rec: dict[str, Any]) -> None:
    """The container shapes a release record must have (flag_db/README.md)."""
    for key, typ in (("options", list), ("positionals", list), ("llm_params", list), ("async_engine_args", list),
                     ("env", dict), ("engine_args", dict), ("json_configs", dict), ("env_refused", dict)):
        v = rec.get(key)
        if v is not None and not isinstance(v, typ):
            raise TypeError(f"'{key}' is a {type(v).__name__}, not a {typ.__name__}")
    if rec.get("build_env") is not None and not isinstance(rec["build_env"], (list, dict)):
        raise TypeError("'build_env' is neither a list of names nor a table")
    if not all(isinstance(e, dict) for e in (rec.get("env_refused") or {}).values()):
        raise TypeError("an 'env_refused' entry is not a table")
    cc = rec.get("config_checks")
    if cc is not None:
        if not isinstance(cc, list) or not all(isinstance(c, dict) and c.get("kind") == "when" for c in cc):
            raise TypeError("'config_checks' is not a list of 'when' checks")
        for c in cc:
            _check_serve_tests(c.get("when"))
    sf = rec.get("start_fields")
    if sf is not None and not (isinstance(sf, dict) and all(
            isinstance(v, dict) and isinstance(v.get("class"), str)
            and isinstance(v.get("constraints", {}), dict) and isinstance(v.get("choices", []), list)
            for v in sf.values())):
        raise TypeError("'start_fields' is not a table of {class, constraints?, choices?}")
    di = rec.get("device_id_checks")
    if di is not None and not (isinstance(di, list) and all(
            isinstance(c, dict) and isinstance(c.get("dest"), str) and isinstance(c.get("checks"), list)
            for c in di)):
        raise TypeError("'device_id_checks' is not a list of {dest, checks} tables")
    sc = rec.get("serve_checks")  # absent in files built before it was scraped: no checks known
    if sc is not None:
        if not isinstance(sc, dict) or not isinstance(sc.get("entries"), list) \
                or not isinstance(sc.get("checks"), list):
            raise TypeError("'serve_checks' is not a table with 'entries' and 'checks' lists")
        for c in sc["checks"]:
            if isinstance(c, dict) and c.get("kind") == "when":
                _check_serve_tests(c.get("when"))
                continue
            if not isinstance(c, dict) or c.get("kind") not in ("requires", "conflicts") or \
                    not all(isinstance(c.get(k), list) and len(c[k]) == 2 and all(isinstance(x, str) for x in c[k])
                            for k in ("dests", "options")):
                raise TypeError("a 'serve_checks' check is not {kind, dests: [a, b], options: [a, b]}")
    for o in rec.get("options") or []:
        if not isinstance(o, dict) or not isinstance(o.get("name"), str):
            raise TypeError("an option record has no name")
        for k in ("aliases", "negations", "hidden"):
            if o.get(k) is not None and not isinstance(o[k], list):
                raise TypeError(f"option {o['name']}: '{k}' is not a list")
        dv = o.get("deprecated_values")
        if dv is not None and not (isinstance(dv, dict) and all(isinstance(e, dict) for e in dv.values())):
            raise TypeError(f"option {o['name']}: 'deprecated_values' is not a table of value -> {{successor}}")


# --------------------------------------------------------------------------- timeline index

INDEX_SCHEMA = 2

# A name's history in index.json: runs of releases, each ``[first]`` (still accepted by the newest
# release) or ``[first, removed_in]`` (accepted from ``first`` up to, not including, ``removed_in``),
# as version strings. A new release rewrites only the runs of names it adds or drops.
Ranges = list[list[str]]


def _runs(indices: Iterable[int], versions: list[str]) -> Ranges:
    spans: list[list[int]] = []
    for i in sorted(set(indices)):
        if spans and spans[-1][1] == i - 1:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    return [[versions[a]] if b + 1 == len(versions) else [versions[a], versions[b + 1]] for a, b in spans]


class _NoCollection:
    """The cyclic garbage collector off (restored as found) while a database file is parsed and
    its surface built: tens of thousands of acyclic containers, whose allocation would otherwise
    trigger collections that traverse every surface and index already loaded."""

    def __enter__(self) -> None:
        self.enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: Any) -> None:
        if self.enabled:
            gc.enable()


def _read_bytes(path: Any) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise DatabaseError(f"{path}: database file is missing") from None
    except OSError as e:
        raise DatabaseError(f"{path}: cannot read database file: {e}") from None


def _decode(data: bytes, path: Any) -> Any:
    try:
        with _NoCollection():
            return json.loads(data)
    except ValueError as e:
        raise DatabaseError(f"{path}: cannot read database file: {e}") from None


def _read_json(path: Any) -> Any:
    return _decode(_read_bytes(path), path)


def dump_json(data: Any) -> bytes:
    """The canonical bytes of a database file: sorted keys, two-space indent, a final newline."""
    return (json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def write_file_atomic(path: Path, data: bytes) -> bool:
    """Replace ``path`` with ``data`` through a temporary file in the same directory and
    ``os.replace``, so a reader never sees half a file. An identical file is left untouched.
    Returns whether the content changed."""
    import tempfile
    from pathlib import Path

    path = Path(path)
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; database files are read by everyone
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return True


def write_json(path: Path, data: Any) -> bool:
    """Write a database file (release, index, overlay) deterministically and atomically."""
    return write_file_atomic(path, dump_json(data))


def prepare_user_db(user: Path, shipped: Path) -> list[str]:
    """Make ``user`` a user database over ``shipped`` before ``db update`` writes to it: its
    ``base.json`` names this shipped database, and releases the shipped one now has are removed
    from it (the shipped files win; vllm-lint was upgraded). Returns the versions removed."""
    from pathlib import Path

    user, shipped = Path(user), Path(shipped)
    state = user_db_state(user, shipped)
    (user / "releases").mkdir(parents=True, exist_ok=True)
    have = {p.stem for p in (shipped / "releases").glob("*.json")}
    removed = []
    for p in sorted((user / "releases").glob("*.json")):
        if p.stem in have:
            p.unlink()
            removed.append(p.stem)
    write_json(user / BASE_FILE, {"schema": 1, "shipped_index_sha256": shipped_fingerprint(shipped)})
    if state != "current":
        compile_index(user)  # over this shipped database, even when nothing new lands afterwards
    return removed


def user_additions(db: "Database") -> list[str]:
    """The releases a user database adds to the shipped one, oldest first ([] for any other)."""
    if db.base_dir is None:
        return []
    return [p.stem for _, p in release_files(db.dir)]


def release_files(db_dir: Path, base: Optional[Path] = None) -> list[tuple[Version, Path]]:
    """``(version, file)`` of every release of ``db_dir``, oldest first; with ``base`` (a user
    database over the shipped one), the base's releases too, ``db_dir``'s file winning."""
    from pathlib import Path

    found: dict[Version, Path] = {}
    for folder in ([Path(base)] if base is not None else []) + [Path(db_dir)]:
        rel = folder / "releases"
        for p in rel.glob("*.json") if rel.is_dir() else []:
            try:
                found[Version(p.stem)] = p
            except InvalidVersion:
                continue
    return sorted(found.items())


def database_base(db_dir: Path) -> Optional[Path]:
    """The shipped database a user database adds releases to (its ``base.json``), or None."""
    return shipped_db_path() if os.path.isfile(os.path.join(db_dir, BASE_FILE)) else None


def _database_base_dir(db_dir: str) -> Optional[str]:
    return _shipped_db_dir() if os.path.isfile(os.path.join(db_dir, BASE_FILE)) else None


def value_key(option: str, value: Any) -> str:
    """The index's name for one choice of an option: ``--all2all-backend=mori_high_throughput``."""
    return f"{option}={value}"


def compile_index(db_dir: Path) -> dict[str, Any]:
    """Build ``index.json`` from ``releases/*.json``: every name ever seen and where, with the
    CRC-32 of each release file a lint may read in pieces (``release_crc32``: :func:`certified`)
    and of the index itself (``crc32``, ``dbfile``)."""
    from pathlib import Path

    db_dir = Path(db_dir)
    files = release_files(db_dir, database_base(db_dir))
    versions = [p.stem for _, p in files]
    options: dict[str, list[int]] = {}
    deprecated: dict[str, list[int]] = {}
    deprecated_values: dict[str, list[int]] = {}
    kinds: dict[str, dict[str, Any]] = {}
    env: dict[str, list[int]] = {}
    build_env: dict[str, list[int]] = {}
    engine: dict[str, list[int]] = {}
    async_engine: dict[str, list[int]] = {}
    llm_params: dict[str, list[int]] = {}
    # string -> its choices as the release's lookup gives them (the first option naming it) -> releases
    choices: dict[str, dict[tuple[str, ...], list[int]]] = {}
    crcs: dict[str, str] = {}
    for i, (_, path) in enumerate(files):
        data = _read_bytes(path)
        rec = _decode(data, path)
        if certified(data, rec, path.stem):
            crcs[path.stem] = f"{dbfile.crc32(data):08x}"
        named: set[str] = set()
        for o in rec.get("options", []):
            opt = Option.from_record(o)
            if opt.absent_from_serve:
                continue  # the timeline is `vllm serve`'s (0.9.0's api_server-only `--model`)
            for s in opt.strings:
                options.setdefault(s, []).append(i)
                if s not in named:  # (``Surface.lookup`` keeps the first option of a string)
                    named.add(s)
                    if opt.choices and not opt.choices_platform:  # (the platform's values are not listed)
                        choices.setdefault(s, {}).setdefault(tuple(str(c) for c in opt.choices), []).append(i)
                # latest known shape of each string: whether it takes a value (used to parse
                # argv of options the target release no longer knows)
                kinds[s] = {"takes_value": opt.takes_value(s), "nargs": opt.nargs, "dest": opt.dest}
            if opt.deprecated:
                for s in opt.strings:
                    deprecated.setdefault(s, []).append(i)
            for value in opt.deprecated_values:
                deprecated_values.setdefault(value_key(opt.name, value), []).append(i)
        for name in rec.get("env", {}) or {}:
            env.setdefault(name, []).append(i)
        for name in rec.get("build_env", []) or []:
            build_env.setdefault(name, []).append(i)
        for name in rec.get("engine_args", {}) or {}:
            engine.setdefault(name, []).append(i)
        for name in rec.get("async_engine_args", []) or []:
            async_engine.setdefault(name, []).append(i)
        for name in rec.get("llm_params", []) or []:
            llm_params.setdefault(name, []).append(i)
    index = {
        "schema": INDEX_SCHEMA,
        "versions": versions,
        "options": {k: _runs(v, versions) for k, v in sorted(options.items())},
        "option_shapes": dict(sorted(kinds.items())),
        # each choice list an option string had, with its runs: what the releases' parsers accept
        # as its value, without loading their files (``Database.option_choices``)
        "option_choices": {k: [{"choices": list(c), "runs": _runs(v, versions)}
                               for c, v in sorted(by.items(), key=lambda cv: cv[1][0])]
                           for k, by in sorted(choices.items())},
        "deprecated": {k: _runs(v, versions) for k, v in sorted(deprecated.items())},
        # "--option=value": where the release deprecates that choice (absent when none does)
        **({"deprecated_values": {k: _runs(v, versions) for k, v in sorted(deprecated_values.items())}}
           if deprecated_values else {}),
        "env": {k: _runs(v, versions) for k, v in sorted(env.items())},
        "build_env": {k: _runs(v, versions) for k, v in sorted(build_env.items())},
        "engine_args": {k: _runs(v, versions) for k, v in sorted(engine.items())},
        "async_engine_args": {k: _runs(v, versions) for k, v in sorted(async_engine.items())},
        "llm_params": {k: _runs(v, versions) for k, v in sorted(llm_params.items())},
        # the files a lint may read in pieces: the index itself (its crc32 digits left out of the
        # sum) and each release file whose bytes are these
        "crc32": dbfile.CRC_PLACEHOLDER,
        "release_crc32": crcs,
    }
    data = dbfile.with_checksum(dump_json(index))
    write_file_atomic(db_dir / "index.json", data)
    at = dbfile.checksum_at(data)
    index["crc32"] = data[at:at + 8].decode()
    return index


#: the top-level tables of a release that a lint reads one entry at a time (``_Table``)
RELEASE_TABLES = ("env", "engine_args", "json_configs", "start_fields")


def certified(data: bytes, rec: Any, version: str) -> bool:
    """Whether a lint may read this release file in pieces (``Surface.from_file``): its bytes are
    the canonical dump of its record, the record has the shapes a lint checks and builds a
    surface, every option names its dest (``by_dest`` finds a record by its bytes), and every
    piece ``dbfile.Doc`` takes decodes to what the whole decode gives."""
    if not isinstance(rec, dict) or rec.get("version") != version or dump_json(rec) != data:
        return False
    try:
        _check_release(rec)
        Surface(rec)
    except (KeyError, TypeError, ValueError, AttributeError):
        return False
    if not all(isinstance(o.get("dest"), str) for o in rec.get("options") or []):
        return False
    return dbfile.reads_alike(data, rec, lists=("options",), tables=RELEASE_TABLES)


class History(Record):
    """Where one name (option string, env var or EngineArgs field) was accepted: ``ranges`` of
    (first version, last version) runs; ``indices`` the release positions, ``mask`` the same as
    the bits of one integer (bit ``i``: release position ``i``)."""

    __slots__ = ("name", "ranges", "indices", "mask")

    def __init__(self, name: str, ranges: list[tuple[str, str]], indices: Optional[set[int]] = None) -> None:
        self.name = name
        self.ranges = ranges
        self.indices = set() if indices is None else indices
        mask = 0
        for i in self.indices:
            mask |= 1 << i
        self.mask = mask

    @property
    def first(self) -> Optional[str]:
        return self.ranges[0][0] if self.ranges else None

    @property
    def last(self) -> Optional[str]:
        return self.ranges[-1][1] if self.ranges else None


class _Index:
    """``index.json``: read in pieces (``dbfile.Doc``) where its own checksum holds, a table's
    entries decoded as they are asked for (a table is decoded whole after ``ENTRIES`` of them);
    any other file decoded whole, as before."""

    ENTRIES = 32

    __slots__ = ("path", "doc", "whole", "_tables", "_asked")

    def __init__(self, path: str) -> None:
        self.path = path
        data = _read_bytes(path)
        self.doc: Optional[dbfile.Doc] = None
        self.whole: Any = None
        if dbfile.own_checksum_holds(data):
            try:
                self.doc = dbfile.Doc(data)
            except (ValueError, UnicodeDecodeError):
                self.doc = None
        if self.doc is None:
            self.whole = _decode(data, path)
        self._tables: dict[str, dict[str, Any]] = {}
        self._asked: dict[str, int] = {}

    def corrupted(self, detail: str = "") -> DatabaseError:
        return DatabaseError(f"{self.path}: corrupted database index{f' ({detail})' if detail else ''}")

    @property
    def is_table(self) -> bool:
        """Whether the file holds an object (the tables); a lazily read one always does."""
        return self.doc is not None or isinstance(self.whole, dict)

    def value(self, key: str, default: Any = None) -> Any:
        if self.doc is None:
            return self.whole.get(key, default)
        try:
            return self.doc.value(key, default)
        except ValueError as e:
            raise self.corrupted(str(e)) from None

    def has(self, key: str) -> bool:
        if self.doc is None:
            return key in self.whole
        try:
            return self.doc.span(key) is not None
        except ValueError as e:
            raise self.corrupted(str(e)) from None

    def table(self, key: str) -> dict[str, Any]:
        """A whole top-level table ({} where the index has none)."""
        if self.doc is None:
            return self.whole.get(key, {})
        t = self._tables.get(key)
        if t is None:
            t = self._tables[key] = self.value(key, {})
        return t

    def entry(self, key: str, name: str) -> Any:
        """One entry of a top-level table, or None."""
        if self.doc is None:
            return self.whole.get(key, {}).get(name)
        t = self._tables.get(key)
        if t is not None:
            return t.get(name)
        asked = self._asked[key] = self._asked.get(key, 0) + 1
        if asked > self.ENTRIES:
            return self.table(key).get(name)
        q = dbfile.quoted(name) if isinstance(name, str) else None
        if q is None:
            return None
        try:
            v = self.doc.entry(key, q)
        except ValueError as e:
            raise self.corrupted(str(e)) from None
        return None if v is dbfile.MISSING else v

    def decoded(self) -> Any:
        """The whole file, decoded."""
        if self.whole is None:
            self.whole = _decode(self.doc.data, self.path) if self.doc is not None else None
        return self.whole


class Database:
    def __init__(self, path: Optional[Any] = None):
        #: the database's directory (a string: the load path does not import pathlib; ``path``
        #: gives it as a ``Path``)
        self.dir: str = _dir_name(path) if path else _default_db_dir()
        #: a user database holds only the releases it adds; the rest are the shipped database's
        self.base_dir: Optional[str] = _database_base_dir(self.dir)
        index_path = os.path.join(self.dir, "index.json")
        if not os.path.exists(index_path):
            raise DatabaseError(f"{index_path}: no flag database index (run `vllm-lint db build`)")
        self._index = _Index(index_path)
        if not self._index.is_table or self._index.value("schema") != INDEX_SCHEMA:
            raise DatabaseError(f"{index_path}: unsupported or corrupted database index")
        try:
            versions = self._index.value("versions", dbfile.MISSING)
            if versions is dbfile.MISSING:
                raise KeyError("versions")
            self.versions: list[str] = list(versions)
            if self._index.doc is None:  # a certified index's versions are parsed when first needed
                self.__dict__["_parsed"] = [Version(v) for v in self.versions]
        except (KeyError, TypeError, InvalidVersion) as e:
            raise DatabaseError(f"{index_path}: corrupted database index ({e})") from None
        if not self.versions:
            raise DatabaseError(f"{index_path}: the database holds no release")
        self._positions = {v: i for i, v in enumerate(self.versions)}
        self._surfaces: dict[str, Surface] = {}
        self._resolved: dict[str, str] = {}
        self._overlay: Optional[dict[str, Any]] = None
        self._choices: dict[str, list[tuple[frozenset[str], frozenset[int]]]] = {}
        self._floors: dict[str, Optional[str]] = {}
        self._histories: dict[tuple[str, str], Optional[History]] = {}

    @cached_property
    def path(self) -> "Path":
        """The database's directory as a ``Path`` (pathlib imported when asked)."""
        return _as_path(self.dir)

    @cached_property
    def base(self) -> Optional["Path"]:
        return _as_path(self.base_dir) if self.base_dir is not None else None

    @cached_property
    def _parsed(self) -> list[Version]:
        return [Version(v) for v in self.versions]

    @property
    def index(self) -> dict[str, Any]:
        """``index.json``, decoded whole (tools and tests; the lint reads it in pieces)."""
        return self._index.decoded()

    # ---- versions
    @cached_property
    def newest(self) -> str:
        """The newest release: a source tree added under a development or local name (``db add``:
        ``0.35.0.dev0+g1a2b3c``) is used when named (``-t``), never as the default."""
        for v in reversed(self.versions):  # (the newest parsed only)
            pv = Version(v)
            if not (pv.is_devrelease or pv.local):
                return v
        return self.versions[-1]

    def position(self, version: str) -> int:
        pos = self._positions.get(version)
        if pos is None:
            raise ValueError(f"{version} is not a release of the database")
        return pos

    def resolve_version(self, spec: str) -> str:
        """A release the user names (``-t``, ``target-version``, ``flags --version``, ``audit
        --from/--to``): ``0.27.1`` / ``v0.27.1`` as is; ``0.27`` the newest 0.27.x (not 0.27.0,
        which PEP 440 equality would pick); ``latest`` the newest."""
        v = self._resolved.get(spec)  # asked for every launch and every surface lookup
        if v is None:
            v = self._resolved[spec] = self._resolve_version(spec, series_first=True)
        return v

    def _resolve_version(self, spec: str, series_first: bool) -> str:
        s = spec.strip()
        if s.lower() in ("latest", "newest", "stable"):
            return self.newest
        s = s[1:] if s[:1] in ("v", "V") else s
        try:
            want = Version(s)
        except InvalidVersion:
            raise UnknownVersion(f"'{spec}' is not a version number") from None
        series = None
        if len(want.release) == 2 and want.pre is None and want.post is None and want.dev is None and not want.local:
            series = [v for v, pv in zip(self.versions, self._parsed) if pv.release[:2] == want.release]
        if series and series_first:
            return series[-1]
        if series is None and s in self._positions and "_parsed" not in self.__dict__:
            # a release of the index as written (``v0.10.2``): a certified index's versions are
            # compile_index's, one per version and in order (``release_files``), so no other
            # equals it, and its versions need not all be parsed to say so (~1 M instructions
            # of a one-file run reading one tag)
            return s
        for v, pv in zip(self.versions, self._parsed):
            if pv == want:
                return v
        if series:
            return series[-1]
        nearest = self.nearest(want)
        raise UnknownVersion(
            f"vLLM {spec} is not in the flag database (covers {self.versions[0]} to {self.newest}); "
            f"nearest releases: {', '.join(nearest)}"
        )

    def nearest(self, want: Version, n: int = 3) -> list[str]:
        below = [v for v, pv in zip(self.versions, self._parsed) if pv < want][-n:]
        above = [v for v, pv in zip(self.versions, self._parsed) if pv > want][:n]
        return below[-2:] + above[:2] if below and above else (below or above)

    def floor_version(self, spec: str) -> Optional[str]:
        """The newest known release <= ``spec`` in the same minor series (for loose hints such as
        an image tag ``v0.8.6`` that PyPI never had), or None. A hint is read as pip reads a pin:
        ``==0.10`` is 0.10.0 when the database has it."""
        if spec not in self._floors:  # asked for every image tag and pin read
            self._floors[spec] = self._floor_version(spec)
        return self._floors[spec]

    def _floor_version(self, spec: str) -> Optional[str]:
        try:
            return self._resolve_version(spec, series_first=False)
        except UnknownVersion:
            pass
        s = spec.strip().lstrip("vV").split("-")[0].split("+")[0]
        try:
            want = Version(s)
        except InvalidVersion:
            return None
        cands = [v for v, pv in zip(self.versions, self._parsed)
                 if pv <= want and pv.release[:2] == want.release[:2]]
        return cands[-1] if cands else None

    # ---- surfaces
    def surface(self, version: str) -> Surface:
        version = self.resolve_version(version)
        s = self._surfaces.get(version)
        if s is None:
            file = os.path.join(self.dir, "releases", f"{version}.json")
            if self.base_dir is not None and not os.path.isfile(file):
                file = os.path.join(self.base_dir, "releases", f"{version}.json")
            data = _read_bytes(file)
            s = self._certified_surface(version, data, file)
            if s is None:
                s = self._whole_surface(version, data, file)
            self._surfaces[version] = s
        return s

    def _certified_surface(self, version: str, data: bytes, file: str) -> Optional[Surface]:
        """The surface of a release file whose CRC-32 is the one the index certified
        (``compile_index``), read in pieces; None for any other file."""
        crc = self._index.entry("release_crc32", version)
        if not isinstance(crc, str) or len(crc) != 8:
            return None
        try:
            if int(crc, 16) != dbfile.crc32(data):
                return None
            doc = dbfile.Doc(data)
        except (ValueError, UnicodeDecodeError):
            return None
        release = _ReleaseFile(doc, file)
        if release.get("version") != version:
            raise DatabaseError(f"{file}: corrupted release file")
        return Surface.from_file(release)

    def _whole_surface(self, version: str, data: bytes, file: str) -> Surface:
        with _NoCollection():
            rec = _decode(data, file)
            if not isinstance(rec, dict) or rec.get("version") != version:
                raise DatabaseError(f"{file}: corrupted release file")
            try:  # a hand-edited file: wrong shapes must be an error message, not a traceback
                _check_release(rec)
                return Surface(rec)
            except (KeyError, TypeError, ValueError, AttributeError) as e:
                raise DatabaseError(f"{file}: corrupted release file ({type(e).__name__}: {e})") from None

    # ---- timeline
    def _history(self, table: str, name: str) -> Optional[History]:
        """``name``'s runs in the index table, memoised: asked for each option and variable of
        every launch (a set of release positions built once per name, not once per launch)."""
        key = (table, name)
        if key not in self._histories:
            self._histories[key] = self._read_history(table, name)
        return self._histories[key]

    def _read_history(self, table: str, name: str) -> Optional[History]:
        runs = self._index.entry(table, name)
        if not runs:
            return None
        idx: set[int] = set()
        ranges = []
        try:
            for run in runs:
                a = self._positions[run[0]]
                b = self._positions[run[1]] - 1 if len(run) > 1 else len(self.versions) - 1
                idx.update(range(a, b + 1))
                ranges.append((self.versions[a], self.versions[b]))
        except (KeyError, IndexError, TypeError):
            raise self._index.corrupted(f"{table} {name}: {runs}") from None
        return History(name, ranges, idx)

    @cached_property
    def plugins(self) -> "PluginIndex":
        """What the platform plugins' releases read (``plugins/index.json``; a user database's
        own, else the shipped one's)."""
        from .plugins import PluginIndex

        return PluginIndex.load(self.dir, self.base_dir)

    def option_history(self, string: str) -> Optional[History]:
        return self._history("options", string)

    @property
    def indexes_choices(self) -> bool:
        """Whether the index lists every option's choices per release (``option_choices``; an
        index compiled before that table was added does not, and its users load the surfaces)."""
        return self._index.has("option_choices")

    def option_choices(self, string: str) -> list[tuple[frozenset[str], frozenset[int]]]:
        """Each choice list ``string`` had as ``Surface.lookup(string).choices`` gives it (as
        strings), with the positions of the releases that had it; [] when no release gave it
        choices. Memoised: asked for every valued option of every launch that names no release."""
        memo = self._choices.get(string)
        if memo is None:
            memo = []
            for entry in self._index.entry("option_choices", string) or ():
                try:
                    memo.append((frozenset(entry["choices"]), frozenset(self._indices(entry["runs"]))))
                except (KeyError, IndexError, TypeError):
                    raise self._index.corrupted(f"option_choices {string}: {entry}") from None
            self._choices[string] = memo
        return memo

    def _indices(self, runs: Ranges) -> list[int]:
        """The release positions of an index entry's runs (``[first]`` or ``[first, removed_in]``)."""
        out: list[int] = []
        for run in runs:
            a = self._positions[run[0]]
            b = self._positions[run[1]] - 1 if len(run) > 1 else len(self.versions) - 1
            out.extend(range(a, b + 1))
        return out

    def env_history(self, name: str) -> Optional[History]:
        return self._history("env", name)

    def build_env_history(self, name: str) -> Optional[History]:
        """Where vLLM's own build (setup.py, CMake, the scripts its Dockerfiles call) read ``name``."""
        return self._history("build_env", name)

    def engine_arg_history(self, name: str) -> Optional[History]:
        return self._history("engine_args", name)

    def llm_param_history(self, name: str) -> Optional[History]:
        """Where ``name`` was a named parameter of ``LLM.__init__`` itself."""
        return self._history("llm_params", name)

    def async_engine_arg_history(self, name: str) -> Optional[History]:
        """Fields only ``AsyncEngineArgs`` adds (``disable_log_requests`` until 0.10.1.1)."""
        return self._history("async_engine_args", name)

    def deprecated_history(self, string: str) -> Optional[History]:
        return self._history("deprecated", string)

    def deprecated_value(self, option: str, value: Any, before: str) -> Optional[tuple[str, Optional[str]]]:
        """The newest release older than ``before`` that deprecated ``value`` of ``option`` (its
        canonical name), with the successor value that release names: ``("0.34.0", "mori")``."""
        history = self._history("deprecated_values", value_key(option, value))
        if history is None:
            return None
        last = self.last_accepting(history, before)
        if last is None:
            return None
        opt = self.surface(last).lookup(option)
        entry = (opt.deprecated_values.get(str(value)) if opt is not None else None) or {}
        return last, entry.get("successor")

    def option_shape(self, string: str) -> Optional[dict[str, Any]]:
        return self._index.entry("option_shapes", string)

    @property
    def all_option_strings(self) -> list[str]:
        return list(self._index.table("options"))

    @cached_property
    def _sorted_option_strings(self) -> list[str]:
        return sorted(self._index.table("options"))

    def option_strings_starting(self, prefix: str) -> list[str]:
        """The option strings any release accepted that start with ``prefix``, sorted (a run of
        the sorted list, found by bisection)."""
        strings = self._sorted_option_strings
        out = []
        for i in range(bisect.bisect_left(strings, prefix), len(strings)):
            if not strings[i].startswith(prefix):
                break
            out.append(strings[i])
        return out

    def newest_abbreviating(self, prefix: str, before: int) -> Optional[str]:
        """The newest release before position ``before`` that accepts an option string starting
        with ``prefix`` other than ``prefix`` itself (what ``Surface.prefix_matches`` lists), from
        the index: the release files in between need not be loaded. None when none does."""
        newest = -1
        for string in self.option_strings_starting(prefix):
            if string != prefix:
                hist = self.option_history(string)
                if hist is not None:
                    newest = max([newest, *(i for i in hist.indices if i < before)])
        return self.versions[newest] if newest >= 0 else None

    @property
    def all_env_names(self) -> list[str]:
        return list(self._index.table("env"))

    @property
    def overlay(self) -> dict[str, Any]:
        if self._overlay is None:
            p = os.path.join(self.dir, "overlays", "renames.json")
            if self.base_dir is not None and not os.path.exists(p):
                p = os.path.join(self.base_dir, "overlays", "renames.json")
            self._overlay = _read_json(p) if os.path.exists(p) else {}
        return self._overlay

    def option_overlay(self, string: str) -> Optional[dict[str, Any]]:
        return self.overlay.get("options", {}).get(string)

    def env_overlay(self, name: str) -> Optional[dict[str, Any]]:
        return self.overlay.get("env", {}).get(name)

    def last_accepting(self, history: History, before: str) -> Optional[str]:
        """The newest release older than ``before`` in which ``history`` was accepted."""
        pos = self.position(before)
        prior = [i for i in history.indices if i < pos]
        return self.versions[max(prior)] if prior else None

    def first_accepting_after(self, history: History, after: str) -> Optional[str]:
        pos = self.position(after)
        later = [i for i in history.indices if i > pos]
        return self.versions[min(later)] if later else None
