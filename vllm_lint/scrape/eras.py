"""vLLM's eras: where each release keeps its CLI and how its releases differ, in one place.

The scrapers read a release by the shape of its source, never by its version number: each row
below says what to look for (a module, a file, a marker in vLLM's own code) and which releases
have it, so a development build or a fork is read by what it contains, and a release between two
rows needs no row of its own. Everything the scrapers know about one release range and not about
another is here; the scrapers hold the generic reading (libcst, argparse's and pydantic's
semantics). ``tests/scrape/test_eras.py`` fails for a release number, a version comparison or a
path of vLLM's tree written in another module of ``scrape/``.

A new release that moves a file, registers its options another way or changes a type helper
gets a row (or an edited row) here, with the fact in its comment; the scraper that reads the row
changes only when the fact is a new kind of fact.

Release ranges say where a fact was seen in the releases' own archives (all 80 of 0.4.0-0.34.0,
read for this table): ``"0.9.0+"`` (from 0.9.0 on), ``"0.5.2-0.7.2"``, ``"-0.9.1"`` (up to 0.9.1).
They are for the reader; no code compares them.

The eras at a glance (each cell is a row below):

=============  ===========================  ================================================  ==========================
releases       ``vllm serve`` parser        options declared                                  ``FlexibleArgumentParser``
=============  ===========================  ================================================  ==========================
0.4.0-0.5.1    api_server ``parse_args()``  explicit ``add_argument`` calls                   ``vllm/utils.py`` (0.5.1)
0.5.2-0.7.2    ``vllm/scripts.py main()``   explicit calls                                    ``vllm/utils.py``
0.7.3-0.8.3    ``cli/serve.py``             explicit calls                                    ``vllm/utils.py``
0.8.4-0.9.1    ``cli/serve.py``             engine: ``get_kwargs(Config)`` per option         ``vllm/utils.py``
0.9.2-0.9.x    ``cli/serve.py``             engine: ``get_kwargs``                            ``vllm/utils/__init__.py``
0.10.0-0.11.0  ``cli/serve.py``             and frontend: a loop over ``FrontendArgs``        ``vllm/utils/__init__.py``
0.11.1-0.32.x  ``cli/serve.py``             the same                                          ``argparse_utils.py``
0.33.0+        ``cli/serve.py``             the same; bools as ``--enable-x/--disable-x``     ``argparse_utils.py``
=============  ===========================  ================================================  ==========================

Where ``make_arg_parser`` lives (``openai/cli_args.py``; ``launchers/`` from 0.29, ``common/``
from 0.33) needs no row: the interpreter follows the serve module's imports to it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

#: The database covers releases from here on (earlier ones predate the CLI this tool models).
MIN_VERSION = "0.4.0"


def module_path(module: str) -> str:
    """``vllm.engine.arg_utils`` -> ``vllm/engine/arg_utils.py``."""
    return module.replace(".", "/") + ".py"


# --------------------------------------------------------------------------- where things live

#: every release: ``EngineArgs`` / ``AsyncEngineArgs``, their ``add_cli_args``, and from 0.8.4
#: ``get_kwargs`` (a release without this module is not one the extractor knows)
ARG_UTILS = "vllm.engine.arg_utils"
#: every release: the ``environment_variables`` dict of the variables vLLM reads
ENVS = "vllm.envs"
#: every release: the offline ``LLM`` class, whose ``__init__`` keywords are the Python API
LLM = "vllm.entrypoints.llm"
#: the OpenAI server module (``python -m vllm.entrypoints.openai.api_server``), the only entry
#: before ``vllm serve`` (-0.5.1) and a second entry after it
OPENAI_API_SERVER = "vllm.entrypoints.openai.api_server"
#: the plain (non-OpenAI) demo server module, run with ``python -m`` too
DEMO_API_SERVER = "vllm.entrypoints.api_server"
#: where config classes are found by name: ``vllm/config.py`` (-0.10.0), the ``vllm/config/``
#: package's ``__init__`` (0.10.1+), and ``vllm/config/vllm.py`` for ``VllmConfig``'s module (0.11.1+)
CONFIG_MODULES = ("vllm.config", "vllm.config.vllm")
#: 0.10.1+: ``vllm/config.py`` became a package; its modules are scanned for classes that copy a
#: deprecated variable into a field
CONFIG_PACKAGE = "vllm/config/"
#: 0.10.1+: the ``config`` decorator's module; from 0.14 that decorator makes a pydantic dataclass
#: with ``extra="forbid"``
CONFIG_UTILS = "vllm/config/utils.py"
#: the ``config`` decorator's definition inside :data:`CONFIG_UTILS` (to its next ``def``)
CONFIG_DECORATOR = re.compile(r"\ndef config\(.*?(?=\ndef |\Z)", re.S)
#: 0.34.0+: ``Platform.validate_environ``, which start-up calls to refuse some variables
PLATFORM_INTERFACE = "vllm/platforms/interface.py"
#: where ``FlexibleArgumentParser`` (and from 0.33 ``EnableDisableAction``) lives, newest first:
#: ``vllm/utils/argparse_utils.py`` (0.11.1+), ``vllm/utils/__init__.py`` (0.9.2-0.11.0: ``utils``
#: became a package), ``vllm/utils.py`` (-0.9.1)
ARGPARSE_UTILS = ("vllm/utils/argparse_utils.py", "vllm/utils/__init__.py", "vllm/utils.py")
#: the Dockerfile whose ``vllm-openai`` stage is the image, newest first: ``docker/Dockerfile``
#: (0.8.3+; not in the 0.15.x sdists), ``Dockerfile`` at the root (0.6.2-0.8.2 in the sdists)
DOCKERFILES = ("docker/Dockerfile", "Dockerfile")
#: module file -> the launch entry that runs it (``frontends/commands.py`` names them so); from
#: 0.29.0 the OpenAI server module's ``__main__`` block warns that it is deprecated
MODULE_ENTRIES = {
    module_path(OPENAI_API_SERVER): "openai.api_server",
    module_path(DEMO_API_SERVER): "api_server",
}


@dataclass(frozen=True)
class ServeEntry:
    """Where one era builds the ``vllm serve`` parser."""

    releases: str
    module: str
    #: how the module builds it: ``"subparser_init"`` (a class's ``subparser_init`` adds the
    #: ``serve`` sub-parser), ``"main"`` (``main()`` builds every sub-parser inline) or
    #: ``"parse_args"`` (the module's ``parse_args()``, else its ``__main__`` block: one parser)
    builds: str


#: where the ``vllm serve`` parser is built, newest layout first; the first row whose module the
#: release has (and, for ``"main"``, that defines ``main()``) is the release's
SERVE_ENTRIES = (
    # the CLI package: ``vllm.entrypoints.cli.main`` hands a sub-parsers object to each
    # ``*Subcommand.subparser_init``; the serve one adds ``model_tag``, ``--config`` and
    # ``make_arg_parser(...)``
    ServeEntry("0.7.3+", "vllm.entrypoints.cli.serve", "subparser_init"),
    # the first ``vllm`` console script: ``main()`` builds the ``serve`` sub-parser inline (the
    # file stays as a shim without ``main()`` until 0.31, behind the row above)
    ServeEntry("0.5.2-0.7.2", "vllm.scripts", "main"),
    # no ``vllm serve``: the OpenAI server module parses its own argv
    ServeEntry("0.4.0-0.5.1", OPENAI_API_SERVER, "parse_args"),
)
#: the serve sub-command's modules (``vllm serve``), newest first: the rows that build sub-parsers
SERVE_SUBCOMMAND_MODULES = tuple(e.module for e in SERVE_ENTRIES if e.builds != "parse_args")

#: The ``sys.argv`` the parser-building code is evaluated under: from 0.9.0 it adds or hides
#: options by what argv holds (``--model`` unless ``serve`` and ``--help``; help text only with
#: ``--help``, 0.10.2+). ``RUN``: a launch; ``HELP``: ``vllm serve --help`` (what it adds only
#: without ``--help`` is hidden); ``API_SERVER``: the OpenAI server module's launch, under which
#: 0.9.0 adds ``--model`` that ``vllm serve`` lacks.
RUN_ARGV = ("vllm", "serve", "MODEL", "--some-flag")
HELP_ARGV = ("vllm", "serve", "--help")
API_SERVER_ARGV = (module_path(OPENAI_API_SERVER), "--model", "MODEL")

#: Archive members besides ``vllm/**.py`` that the scrapers (and the cross-check tool) read:
#: build metadata, the release's version module, the image's Dockerfiles.
ARCHIVE_EXTRA = ("pyproject.toml", "setup.py", "requirements.txt", "vllm/version.py", *DOCKERFILES)
#: Subtrees that are large and never define CLI options, choices or config classes: model
#: implementations (``vllm/model_executor/models/``; ``vllm/models/`` in later layouts) and
#: vendored third-party code.
ARCHIVE_SKIPPED = (
    "vllm/model_executor/models/",
    "vllm/models/",
    "vllm/third_party/",
    "vllm/vllm_flash_attn/",
)
#: where the build scripts a Dockerfile may call live (their variables are build-time reads)
BUILD_SCRIPT_DIRS = ("tools/", ".buildkite/")


# --------------------------------------------------------------------------- how options are declared


@dataclass(frozen=True)
class Marker:
    """A behaviour some releases have, told by a marker in vLLM's own implementation text."""

    releases: str
    text: str
    regex: bool = False

    def found(self, source: Optional[str]) -> bool:
        if not source:
            return False
        return bool(re.search(self.text, source)) if self.regex else self.text in source


#: the functions of :data:`ARG_UTILS` whose text is ``get_kwargs``' implementation (0.8.4+: the
#: dataclass era; later split into helpers): the ``KWARGS_*`` markers are looked for in it
KWARGS_FUNCTIONS = ("get_kwargs", "_compute_kwargs", "literal_to_kwargs", "collection_to_kwargs")
#: exactly ``bool | str | None`` (``hf_token``) is ``type=str, nargs="?", const=True``, not a switch
KWARGS_BOOL_STR_NONE = Marker("0.21.0+", "{bool, str, type(None)}")
#: a field typed with another config dataclass takes JSON (``parse_dataclass``)
KWARGS_DATACLASS_JSON = Marker("0.9.0+", "is_dataclass")
#: a dict field that may be None is ``optional_type(json.loads)`` (else ``parse_type(json.loads)``)
KWARGS_DICT_OPTIONAL_JSON = Marker("0.8.5+", "optional_type(json.loads)")
#: a dict combined with ``str`` or a class is ``union_dict_and_str``
KWARGS_DICT_OR_STR = Marker("0.9.0+", "union_dict_and_str")
#: an optional field's choices get Python ``None`` (which the word None passes), not the string
#: ``"None"`` (0.8.5-0.30: which no word passes once ``optional_type`` turned it into None)
KWARGS_NONE_CHOICE = Marker("0.31.0+", r"\[\s*[\"']choices[\"']\s*\]\.append\(\s*None\s*\)", regex=True)
#: a list of a ``Literal`` keeps the Literal's choices
KWARGS_LITERAL_IN_COLLECTION = Marker("0.9.0+", 'get_origin(kwargs[name].get("type")) is Literal')
#: a ``set[T]`` field is a collection like ``list[T]`` (``nargs="+"``)
KWARGS_SET_COLLECTION = Marker("0.11.1+", "contains_type(type_hints, set)")
#: ``max_model_len`` takes ``human_readable_int_or_auto`` ("1k", "auto")
KWARGS_HUMAN_INT_OR_AUTO = Marker("0.14.0+", "human_readable_int_or_auto")
HUMAN_INT_OR_AUTO_FIELD = "max_model_len"
#: some int fields take ``human_readable_int`` ("1k", "2M"): the fields named in the literal
#: collection that holds ``max_num_batched_tokens`` (0.9.1+), else those compared by
#: ``name == "x"`` (no release 0.4.0-0.34.0 has that form). 0.8.4-0.8.5 give the type in an
#: explicit ``add_argument`` instead; 0.9.0's ``if name in {"max_model_len"}:`` is read as a third
#: form (its next line gives the fields ``human_readable_int``)
KWARGS_HUMAN_INT = Marker("0.8.4+", "human_readable_int")
_HUMAN_INT_ANCHOR = "max_num_batched_tokens"


def human_int_fields(kwargs_text: str) -> set[str]:
    """The fields ``get_kwargs`` gives ``human_readable_int`` (:data:`KWARGS_HUMAN_INT`)."""
    fields: set[str] = set()
    for m in re.finditer(r"[\{\[\(]([^\{\}\[\]\(\)]*?\"" + _HUMAN_INT_ANCHOR + r"\"[^\{\}\[\]\(\)]*?)[\}\]\)]",
                         kwargs_text):
        fields |= set(re.findall(r"\"([a-z_0-9]+)\"", m.group(1)))
    for m in _HUMAN_INT_MEMBERSHIP.finditer(kwargs_text):  # (0.9.0: `if name in {"max_model_len"}:`)
        fields |= set(re.findall(r"[\"']([a-z_0-9]+)[\"']", m.group(1)))
    if not fields and KWARGS_HUMAN_INT.found(kwargs_text):
        fields = set(re.findall(r"name == \"([a-z_0-9]+)\"", kwargs_text)) - {HUMAN_INT_OR_AUTO_FIELD}
    return fields


# `if name in {...}:` whose next line gives those fields `human_readable_int` (not `..._or_auto`)
_HUMAN_INT_MEMBERSHIP = re.compile(r"name\s+in\s+[\{\[\(]([^\{\}\[\]\(\)]*)[\}\]\)]\s*:\s*\n[^\n]*=\s*human_readable_int\b")


#: in :data:`ARG_UTILS`: ``parse_type`` / ``optional_type`` around ``json.loads`` read a value
#: that is not ``{...}`` as comma-separated ``KEY=VALUE`` integers (``nullable_kvs``)
KVS_FALLBACK = Marker("0.8.5-0.9.2", "is json.loads and not re.match")
#: in :data:`ARGPARSE_UTILS`: ``FlexibleArgumentParser`` registers ``EnableDisableAction`` for
#: ``BooleanOptionalAction``: ``--enable-x`` / ``--disable-x``, with ``--no-enable-x`` hidden
ENABLE_DISABLE = Marker(
    "0.33.0+",
    r"register\(\s*[\"']action[\"']\s*,\s*(?:argparse\.)?BooleanOptionalAction\s*,\s*EnableDisableAction",
    regex=True)
ENABLE_DISABLE_CLASS = "EnableDisableAction"

#: the classes that make an argparse parser (``FlexibleArgumentParser``, 0.5.1+, rewrites
#: ``--foo_bar`` to ``--foo-bar``)
PARSER_CLASSES = frozenset({"ArgumentParser", "FlexibleArgumentParser"})
#: functions the interpreter always steps into: they build the serve parser in some era
#: (``_customize_cli_kwargs``: ``FrontendArgs``' per-field patches)
PARSER_BUILDERS = ("add_cli_args", "make_arg_parser", "_customize_cli_kwargs", "subparser_init")
#: the functions that turn a config class into ``add_argument`` kwargs (modelled, not interpreted)
KWARGS_BUILDERS = ("get_kwargs", "_compute_kwargs")


# --------------------------------------------------------------------------- type quirks

#: an argparse ``type=`` function of vLLM (or the standard library) -> the database's type name
TYPE_NAMES = {
    "int": "int", "float": "float", "str": "str", "bool": "bool",
    "loads": "json", "json.loads": "json",
    # "1k", "2M" (0.8.4+), and "auto" besides (``--max-model-len``, 0.14.0+)
    "human_readable_int": "human_int", "human_readable_int_or_auto": "human_int_or_auto",
    # a JSON object or a plain string (0.9.0+)
    "union_dict_and_str": "dict_or_str",
    # comma-separated KEY=VALUE integers (``--limit-mm-per-prompt``, -0.9.2)
    "nullable_kvs": "kvs",
}

#: ``type=`` functions that take the word ``None`` (or an empty word) as Python None around a str
#: (``nullable_str``, -0.8.3), and the wrapper that does so around any type (``optional_type(T)``,
#: 0.8.5+: ``get_kwargs`` gives it to every field that may be None)
NULLABLE_STR = "nullable_str"
OPTIONAL_TYPE = "optional_type"
#: ``parse_type(f)``: ``f`` applied to the word, its error turned into argparse's (0.8.5+)
PARSE_TYPE = "parse_type"
#: the scraper's name for ``get_kwargs``' local ``parse_dataclass`` (a config class from JSON, 0.9.0+)
PARSE_DATACLASS = "parse_dataclass"
#: class methods used as ``type=`` that build a config class from the word (JSON options):
#: ``CompilationConfig.from_cli`` (0.5.1+), ``from_json`` (0.6.6-0.8.5)
JSON_CLASS_CONSTRUCTORS = ("from_cli", "from_json")
#: the action that takes ``true`` / ``false`` as a value (``--x true``), -0.8.3 in ``add_cli_args``
BOOL_VALUE_ACTION = "StoreBoolean"

#: options whose choices are a registry filled by ``@Manager.register_module("name")``
#: decorators at import time (the argparse choices are an empty container in the source):
#: ``--reasoning-parser`` (0.7.x-0.10.x, ``choices=list(ReasoningParserManager...)``) and
#: ``--tool-call-parser`` (0.10.0 only: ``FrontendArgs``' kwargs get ``choices=`` the builtin tool
#: parsers, so a plugin's or a later release's name is refused; 0.9.2 and 0.10.1+ name them in the
#: metavar only, no choices). Read only where the option's kwargs set ``choices``
REGISTRIES = {"reasoning_parser": "ReasoningParserManager", "tool_call_parser": "ToolParserManager"}

#: 0.34.0+: ``create_engine_config`` calls this platform method, which walks ``os.environ``
ENV_VALIDATOR = "validate_environ"
#: 0.34.0+: in :data:`ENVS`, the removed variables (name -> migration hint) the validator refuses
REMOVED_ENV_TABLE = "removed_environment_variables"


# --------------------------------------------------------------------------- names a nested config takes


@dataclass(frozen=True)
class NameTables:
    """The string names a JSON config's nested fields take, kept in module-level dict literals of
    the config class's module (their keys are the names; validators look a string up in them)."""

    releases: str
    #: the config class whose fields take a name or an object of the nested class
    cls: str
    #: its fields that take a name (a ``before`` validator turns it into the nested object)
    fields: tuple[str, ...]
    #: a dict of shorthand name -> ``cls(field=...)``: a field given a shorthand takes it only where
    #: the shorthand sets that field (looked up before :attr:`names`)
    shorthands: str
    #: the dict whose keys every named field takes (a field's string outside the shorthands)
    names: str
    #: the nested class's keys -> the dicts whose keys it takes (the first one must be there)
    nested: tuple[tuple[str, tuple[str, ...]], ...]


#: expressions whose value is the platform's, not the release's: a ``choices=`` written as a list of
#: strings plus one of these (0.28.0+: ``--mm-processor-device`` takes ``auto``, ``cpu`` and the
#: platform's ``device_type``, ``cuda`` on a GPU) records the strings as ``choices`` and marks the
#: option ``choices_platform`` (what else it takes depends on the machine)
PLATFORM_VALUES = ("current_platform.device_type",)


#: the bodies of ``after`` field validators of a list field that refuse an item, read by
#: ``scrape/item_checks.py`` (0.20.0+: ``ParallelConfig``'s ``numa_bind_nodes`` and
#: ``numa_bind_cpus``; ``start_fields.<dest>.items``): (fact, the code's shape). ``ge``: ``if
#: any(n < 0 for n in value): raise``; ``nonempty``: ``for s in value: if not s: raise``;
#: ``pattern``: ``if not PATTERN.fullmatch(s): raise`` with ``PATTERN = re.compile(r"...")`` at the
#: module's top; ``ascending``: a range ``a-b`` of a comma list with ``int(a) > int(b)`` raises
ITEM_VALIDATOR_SHAPES = (
    ("ge", r"if any\((?P<item>\w+) < (?P<bound>-?\d+) for (?P=item) in \w+\):\s*raise "),
    ("nonempty", r"for (?P<item>\w+) in \w+:\s*if not (?P=item):\s*raise "),
    ("pattern", r"if not (?P<regex>\w+)\.fullmatch\(\w+\):\s*raise "),
    ("ascending", r"\.split\(\"-\", 1\)\s*if int\(\w+\) > int\(\w+\):\s*raise "),
)


#: functions ``EngineArgs.__post_init__`` calls on its own fields on every start, whose refusals
#: are read as checks over those options (``serve_checks.resolver_checks``, ``config_checks``
#: with ``"class": "EngineArgs"``): ``resolve_quantization_config`` (0.22.0+; 0.22.0-0.29.0 raise
#: for ``--quantization-config`` beside a ``--quantization`` outside ``ONLINE_QUANT_SHORTHAND_NAMES``,
#: 0.30.0+ compose them and raise nothing). Selected by name: a release without it has no row.
START_RESOLVERS = frozenset({"resolve_quantization_config"})


#: 0.23.0+: ``--quantization-config``'s ``linear`` / ``moe`` take a shorthand of
#: ``_ONLINE_SHORTHANDS`` that sets that field or a name of ``QUANT_KEY_NAMES`` (the shorthand is
#: looked up first: a shorthand that leaves the field unset is refused); ``QuantSpec``'s
#: ``activation`` a name of ``QUANT_KEY_NAMES``, its ``weight`` one of that or (0.34+) of
#: ``_WEIGHT_QUANT_KEY_NAMES``. Any other string is refused while the object is validated
QUANT_NAME_TABLES = NameTables(
    "0.23.0+", "QuantizationConfigArgs", ("linear", "moe"), "_ONLINE_SHORTHANDS", "QUANT_KEY_NAMES",
    (("weight", ("QUANT_KEY_NAMES", "_WEIGHT_QUANT_KEY_NAMES")), ("activation", ("QUANT_KEY_NAMES",))))
NAME_TABLES = (QUANT_NAME_TABLES,)


@dataclass(frozen=True)
class ItemNameTables:
    """The names each item of a JSON config's object field takes (``{pattern: name or object}``),
    kept in module-level dict literals of the config class's module."""

    releases: str
    #: the config class whose object fields these are
    cls: str
    #: its fields whose items are a name or an object of the nested class
    fields: tuple[str, ...]
    #: the dict whose keys a string item takes
    names: str
    #: the nested class's keys -> the dicts whose keys it takes (as :attr:`NameTables.nested`)
    nested: tuple[tuple[str, tuple[str, ...]], ...]


#: 0.33.0+: ``--quantization-config``'s ``targets`` maps a layer pattern to a shorthand of
#: ``_ONLINE_SHORTHANDS`` (any one) or, 0.34.0+ (``dict[str, str | QuantSpec]``), an object of
#: ``QuantSpec`` (its keys' names as :data:`QUANT_NAME_TABLES`); its before validator refuses any
#: other item
QUANT_TARGET_TABLES = ItemNameTables("0.33.0+", "QuantizationConfigArgs", ("targets",), "_ONLINE_SHORTHANDS",
                                     QUANT_NAME_TABLES.nested)
ITEM_NAME_TABLES = (QUANT_TARGET_TABLES,)
