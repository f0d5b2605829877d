"""Static extraction of one vLLM release's option surface (``flag_db`` schema 1).

``extract_release(tree, version, source)`` reads the release through ``tree`` only (libcst; vLLM
is never imported or run) and returns the per-release record described in ``flag_db/README.md``.

The ``vllm serve`` parser is found by the first row of ``eras.SERVE_ENTRIES`` the release has
(where each era builds it, and how): a ``*Subcommand.subparser_init`` is interpreted with a
sub-parsers object (the parser it names ``serve``), a ``main()`` is interpreted (the sub-parser
named ``serve``), or a module's ``parse_args()`` (or its ``__main__`` block; the first parser it
creates). Every other fact that differs between releases (paths, markers, type helpers) is a row
of ``eras`` too.

The functions they call (``make_arg_parser``, ``add_cli_args``, ``_customize_cli_kwargs``...) are
interpreted in turn by ``argparse_calls.Interpreter``; ``get_kwargs(Config)`` is modelled there.
"""

from __future__ import annotations

import json
import re
from typing import Any, Optional

import libcst as cst

from . import eras
from .argparse_calls import Interpreter, KwargsModel, ParserObj, RecordedAction
from .env_reads import build_reads, config_env_deprecations, runtime_reads
from .entry_deprecations import deprecated_entries
from .env_refusals import env_refusals
from .envs import extract_env
from .field_checks import (dict_lookups, enum_lookups, method_chain, model_sees_input, pydantic_facts, required_field,
                           string_transforms, takes_no_string, validator_rewrites, version_fields)
from .jsonify import to_json
from .name_tables import field_names, item_names
from .pyresolve import (
    UNKNOWN,
    BoundMethod,
    CallOf,
    ClassInfo,
    ExtractionError,
    FuncRef,
    Lambda,
    Module,
    Project,
    Ref,
    TypeHint,
    TypeResolver,
    _Unknown,
    literal_choices,
    type_members,
    type_str,
)
from ..surface.db import WORD_METHODS
from .item_checks import item_checks
from .serve_checks import (assigned_dests, class_checks, device_id_checks, option_class_checks, resolver_checks,
                           serve_checks, unconditional_calls, unconditional_self_calls)
from .tree import SourceTree

SCHEMA = 1

__all__ = ["ExtractionError", "extract_release"]


def extract_release(tree: SourceTree, version: str, source: dict) -> dict:
    """The schema-1 record of one release. Raises ``ExtractionError`` naming the reason when the
    release's source does not have the shape this extractor knows."""
    project = Project(tree)
    arg_utils = eras.module_path(eras.ARG_UTILS)
    if not project.exists(arg_utils):
        raise ExtractionError(f"{arg_utils} not found in the source tree")
    ex = _Extractor(project, version)
    return ex.run(dict(source))


# --------------------------------------------------------------------------- helpers


_TYPE_NAMES = eras.TYPE_NAMES


def norm_type(t: Any) -> tuple[Optional[str], bool, Optional[ClassInfo]]:
    """(type name, accepts "None"?, config class for JSON options) of an argparse ``type=``."""
    if t is None or t is UNKNOWN:
        return None, False, None
    if isinstance(t, Ref):
        if t.short == eras.PARSE_DATACLASS:
            return "json", False, t.args[0] if t.args else None
        if t.short == eras.NULLABLE_STR:
            return "str", True, None
        return _TYPE_NAMES.get(t.name, _TYPE_NAMES.get(t.short, "str")), False, None
    if isinstance(t, FuncRef):
        if t.name == eras.NULLABLE_STR:
            return "str", True, None
        return _TYPE_NAMES.get(t.name, "str"), False, None
    if isinstance(t, CallOf):
        if t.short == eras.OPTIONAL_TYPE and t.args:
            inner, _, cls = norm_type(t.args[0])
            return inner, True, cls
        if t.short == eras.PARSE_TYPE and t.args:
            return norm_type(t.args[0])
        return "str", False, None
    if isinstance(t, BoundMethod):
        if t.func.name in eras.JSON_CLASS_CONSTRUCTORS and isinstance(t.self_value, ClassInfo):
            return "json", False, t.self_value
        return "str", False, None
    if isinstance(t, ClassInfo):
        return "str", False, None
    if isinstance(t, Lambda):
        return "str", False, None
    return "str", False, None


def value_transform(t: Any) -> Optional[list]:
    """The string methods an argparse ``type=`` applies to the word before the choice check, as
    ``[[method, *literal args], ...]`` in order (``lambda s: s.lower().replace("-", "_")``: the
    0.20+ ``--moe-backend``), or None when the type is not such a chain."""
    if isinstance(t, CallOf) and t.short == eras.OPTIONAL_TYPE and t.args:
        return value_transform(t.args[0])
    if isinstance(t, Ref) and t.name.startswith("str.") and WORD_METHODS.get(t.short) == 0:
        return [[t.short]]
    if not isinstance(t, Lambda):
        return None
    ps = t.node.params
    if len(ps.params) != 1 or ps.posonly_params or ps.kwonly_params or isinstance(ps.star_arg, cst.Param) \
            or ps.star_kwarg is not None:
        return None
    return method_chain(t.node.body, ps.params[0].name.value)


def wraps_json_loads(t: Any) -> bool:
    """Whether an argparse ``type=`` is vLLM's ``parse_type`` / ``optional_type`` around
    ``json.loads`` (the wrappers that fell back to ``nullable_kvs`` in 0.8.5-0.9.x), not
    ``json.loads`` itself."""
    if isinstance(t, CallOf) and t.short in (eras.PARSE_TYPE, eras.OPTIONAL_TYPE) and t.args:
        inner = t.args[0]
        return isinstance(inner, Ref) and inner.name in ("json.loads", "loads") or wraps_json_loads(inner)
    return False


_DEPRECATED_RE = re.compile(
    r"\[DEPRECATED\]|\(DEPRECATED|\bDeprecated[:.,]|\bis deprecated\b|\bare deprecated\b|"
    r"\bhas been deprecated\b|\bdeprecated(?: and|,)? (?:will|in favou?r)|"
    r"\bhas been replaced by\b|^\s*deprecated\b|\bdeprecated\s*[.;:]",
    re.IGNORECASE)
_SUCCESSOR_RES = [
    re.compile(r"\b(?:[Uu]se|[Pp]lease use|[Uu]sing)\s+[`'\"]*(-{1,2}[A-Za-z0-9][\w.\-]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
               r"[`'\"]*(?:\s*=\s*\S+)?[^.]*?\binstead\b"),
    re.compile(r"\b(?:replaced|superseded) by\s+(?:the\s+)?[`'\"]*(-{1,2}[A-Za-z0-9][\w.\-]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)"),
    re.compile(r"\b(?:[Uu]se|[Pp]lease use)\s+[`'\"]*(--[A-Za-z0-9][\w.\-]*)"),
]


def is_deprecated_text(text: Optional[str]) -> bool:
    return bool(text) and bool(_DEPRECATED_RE.search(text))


def successor_in(text: str, accepted: set[str], own: set[str]) -> Optional[str]:
    for rx in _SUCCESSOR_RES:
        for m in rx.finditer(text):
            cand = m.group(1).rstrip(".,;:)`'\"")
            if not cand.startswith("-"):
                cand = "--" + cand.replace("_", "-")
            head = cand.split(".", 1)[0].split("=", 1)[0]
            if head in own:
                continue
            if head in accepted:
                return cand.split("=", 1)[0]
    return None


#: one item of a help text's list of values: ``- "mori": ...`` / ``* `auto`: ...``
_VALUE_ITEM_RE = re.compile(r"^(?P<indent>[ \t]*)[-*][ \t]+[\"'`]{1,2}(?P<value>[^\"'`\s]+)[\"'`]{1,2}[ \t]*:")
_VALUE_SUCCESSOR_RE = re.compile(
    r"\b(?:[Uu]se|in favou?r of|replaced by|superseded by)\s+(?:the\s+)?[\"'`]{1,2}([^\"'`\s]+)[\"'`]{1,2}")


def value_deprecations(text: str, choices: Optional[list]) -> tuple[dict[str, dict], str]:
    """The choices a help text's list of values marks deprecated, and the text without those items.

    vLLM documents a ``Literal`` field's values as a bulleted list in the field's docstring (the
    help); an item that says the value is deprecated (0.34's ``--all2all-backend``:
    ``- "mori_high_throughput": ... (deprecated; use "mori")``) deprecates that value, not the
    option. ``successor`` is the value the item names after "use" / "in favour of" where it is a
    choice too, else None. The rest of the text decides whether the option itself is deprecated."""
    if not text or not choices:
        return {}, text
    values = {c for c in choices if isinstance(c, str)}
    lines = text.splitlines()
    items: list[tuple[int, int, str]] = []  # (first line, end line, value)
    i = 0
    while i < len(lines):
        m = _VALUE_ITEM_RE.match(lines[i])
        if m is None or m.group("value") not in values:
            i += 1
            continue
        indent = len(m.group("indent").expandtabs())
        j = i + 1
        # the item runs on over the lines indented deeper than its bullet
        while j < len(lines) and lines[j].strip() and len(lines[j]) - len(lines[j].lstrip()) > indent \
                and not _VALUE_ITEM_RE.match(lines[j]):
            j += 1
        items.append((i, j, m.group("value")))
        i = j
    found: dict[str, dict] = {}
    drop: set[int] = set()
    for start, end, value in items:
        body = " ".join(line.strip() for line in lines[start:end])
        if not is_deprecated_text(body):
            continue
        succ = next((m.group(1) for m in _VALUE_SUCCESSOR_RE.finditer(body)
                     if m.group(1) in values and m.group(1) != value), None)
        found[value] = {"successor": succ}
        drop.update(range(start, end))
    if not found:
        return {}, text
    return dict(sorted(found.items())), "\n".join(line for n, line in enumerate(lines) if n not in drop)


# --------------------------------------------------------------------------- extractor


def _action_name(action: Any) -> Optional[str]:
    """The name of an ``add_argument``'s ``action=`` (a string, or the class or function it names)."""
    if isinstance(action, str):
        return action
    if isinstance(action, (Ref, ClassInfo, FuncRef)):
        return action.short if isinstance(action, Ref) else action.name
    return None


def _kind(kw: dict, strings: list[str], action_name: Optional[str], enable_disable: bool, typ: Optional[str],
          json_cls, aliases: list[str], hidden: list[str]) -> tuple[str, Optional[str], list[str], list[str], list[str]]:
    """(kind, type, negations, aliases, hidden) of an option by its action: a switch, a
    ``--x/--no-x`` pair (with ``--enable-x/--disable-x`` where vLLM registers that action), a
    boolean value, an optional value, a JSON config, else a valued option."""
    kind = "valued"
    negations: list[str] = []
    if action_name in ("store_true", "store_false", "store_const", "count", "help", "version",
                       "append_const"):
        kind, typ = "switch", None
    elif action_name == "BooleanOptionalAction":
        kind, typ = "negatable", "bool"
        negs = ["--no-" + s[2:] for s in strings if s.startswith("--")]
        if enable_disable:
            inverses = []
            for s in strings:
                for prefix, inv in (("--enable-", "--disable-"), ("--disable-", "--enable-")):
                    if s.startswith(prefix):
                        inverses.append(inv + s[len(prefix):])
            if inverses:
                hidden = sorted(set(hidden) | set(negs))
            negs = negs + inverses
        negations = negs
        aliases = aliases + negs
    elif action_name == eras.BOOL_VALUE_ACTION:
        kind, typ = "bool_value", "bool"
    elif kw.get("nargs") == "?" and "const" in kw:
        kind = "optional_value"
    elif json_cls is not None:
        kind = "json"
    if kind in ("valued", "optional_value") and typ is None:
        typ = "str"
    return kind, typ, negations, aliases, hidden


def _default(kw: dict, action_name: Optional[str]) -> tuple[Any, bool]:
    """(default as JSON, computed at run time?) of an option."""
    if action_name == "help":
        return None, False
    if "default" in kw:
        default, computed = to_json(kw["default"])
        if kw["default"] is UNKNOWN:
            default, computed = None, True
        return default, computed
    if action_name == "store_true":
        return False, False
    if action_name == "store_false":
        return True, False
    return None, False


def _deprecation(kw: dict, action: Any, help_text: Any, choices_json) -> tuple[Optional[str], str, dict]:
    """(how the option is deprecated or None, the text that says so, its deprecated values):
    argparse's ``deprecated=True``, a deprecating action class, else its help or docstring."""
    dep_how = None
    value_deps: dict[str, dict] = {}
    dep_text = help_text if isinstance(help_text, str) else ""
    doc = kw.get("__doc__") if isinstance(kw.get("__doc__"), str) else ""
    if kw.get("deprecated") is True:
        dep_how = "argparse"
    elif isinstance(action, ClassInfo) and "deprecat" in action.name.lower():
        dep_how = "action"
        dep_text = dep_text + " " + _class_text(action)
    else:
        # deprecated values of a listed set are the values' facts, not the option's
        value_deps, dep_text = value_deprecations(dep_text, choices_json)
        doc = value_deprecations(doc, choices_json)[1]
        if is_deprecated_text(dep_text):
            dep_how = "docstring" if doc and dep_text.startswith(doc) and is_deprecated_text(doc) else "help"
    return dep_how, dep_text, value_deps


class _Extractor:
    def __init__(self, project: Project, version: str):
        self.p = project
        self.version = version
        self.arg_utils = project.module(eras.ARG_UTILS)
        self.kwmodel = KwargsModel(project, self.arg_utils)
        self.types = TypeResolver(project)
        self.kvs_fallback = eras.KVS_FALLBACK.found(project.text(eras.module_path(eras.ARG_UTILS)))

    # -- the serve parser
    def build_parser(self) -> tuple[ParserObj, str, str, Interpreter]:
        interp = Interpreter(self.p, self.kwmodel)
        row, mod = self._serve_entry()
        entry = mod.path
        if row.builds == "subparser_init":
            parser = self._subparser_init(interp, mod)
        elif row.builds == "main":
            interp.invoke(FuncRef(mod, mod.bindings["main"][1]), [], {})
            parser = next((p for p in interp.parsers if p.name == "serve"), None)
        else:
            self._parse_args(interp, mod)
            parser = interp.parsers[0] if interp.parsers else None
        if parser is None or not parser.actions:
            raise ExtractionError(f"{entry}: could not find the serve parser's arguments")
        parser_module = None
        for f in interp.called:
            if f.name == "make_arg_parser":
                parser_module = f.module.path
                break
        return parser, entry, parser_module or entry, interp

    def _serve_entry(self) -> tuple[eras.ServeEntry, Module]:
        """The row of ``eras.SERVE_ENTRIES`` that builds this release's serve parser, and its module."""
        for row in eras.SERVE_ENTRIES:
            mod = self.p.module(row.module)
            if mod is None:
                continue
            if row.builds == "main" and mod.bindings.get("main", ("",))[0] != "func":
                continue  # a shim without main(): an older layout's module
            return row, mod
        raise ExtractionError("no serve entry point: none of "
                              + ", ".join(eras.module_path(row.module) for row in eras.SERVE_ENTRIES))

    def _subparser_init(self, interp: Interpreter, serve: Module) -> Optional[ParserObj]:
        """The ``serve`` parser a ``*Subcommand.subparser_init`` adds to a sub-parsers object."""
        cls = None
        for name, b in serve.bindings.items():
            if b[0] == "class":
                ci = self.p.class_info(serve, b[1])
                if any(isinstance(s, cst.FunctionDef) and s.name.value == "subparser_init"
                       for s in ci.node.body.body):
                    cls = ci
                    break
        if cls is None:
            raise ExtractionError(f"{serve.path}: no class with subparser_init")
        from .argparse_calls import SubparsersObj
        root = ParserObj(name=None, flexible=True)
        interp.parsers.append(root)
        meth = cls.method("subparser_init")
        from .pyresolve import Instance
        inst = Instance(cls)
        if cls.class_attr("name") is None:
            inst.attrs["name"] = "serve"
        interp.invoke(BoundMethod(meth, inst), [SubparsersObj(root)], {})
        return next((p for p in interp.parsers if p.name == "serve"), None)

    def _parse_args(self, interp: Interpreter, api: Module) -> None:
        """Runs the module's ``parse_args()``, else its ``__main__`` block (the parser it creates first)."""
        b = api.bindings.get("parse_args")
        if b and b[0] == "func":
            interp.invoke(FuncRef(api, b[1]), [], {})
            return
        main_block = None
        for stmt in api.node.body:
            if isinstance(stmt, cst.If) and "__main__" in api.node.code_for_node(stmt.test):
                main_block = stmt
        if main_block is None:
            raise ExtractionError(f"{api.path}: no parse_args() and no __main__ block")
        try:
            interp.exec_block(main_block.body.body, api, {})
        except Exception as exc:  # noqa: BLE001 - _Return etc.
            if type(exc).__name__ != "_Return":
                raise

    # -- records
    def run(self, source: dict) -> dict:
        parser, entry, parser_module, interp = self.build_parser()
        enable_disable = self._enable_disable()
        actions = list(parser.actions)
        if parser.add_help:
            actions.insert(0, RecordedAction(["-h", "--help"], {"action": "help", "default": "==SUPPRESS=="},
                                             None, False))
        raw = [self._option(a, enable_disable) for a in actions]
        positionals = [r for r in raw if r is not None and r.get("__positional__")]
        options = [r for r in raw if r is not None and not r.get("__positional__")]
        # later registrations of the same string win in argparse (conflict_handler="error" would
        # raise, so a well-formed release has none); keep them all but check
        accepted = set()
        for o in options:
            accepted.add(o["name"])
            accepted.update(o["aliases"])
        for o in options:
            dep = o.pop("__dep_text__")
            how = o["deprecated"]
            if how is not None:
                own = {o["name"], *o["aliases"]}
                o["deprecated"] = {"how": how, "successor": successor_in(dep or "", accepted, own)}
        options.sort(key=lambda o: (o["name"], o["dest"]))
        json_configs = self._json_configs(options)
        for o in options:
            o.pop("__json_class__", None)
            o.pop("__parses_class__", None)
        engine_args, async_only = self._engine_args()
        env = extract_env(self.p)
        for name in runtime_reads(self.p.tree, env):  # read directly, outside envs.py: runtime surface too
            env[name] = {"choices": None, "default": None, "default_computed": True, "deprecated": None,
                         "type": None, "outside_envs": True}
        for name, successor in config_env_deprecations(self.p.tree).items():
            if name in env and not env[name].get("deprecated"):  # copied into a config with a warning
                env[name]["deprecated"] = {"how": "config", "successor": successor}
        era = {"parser_module": parser_module, "entry": entry,
               "image_entrypoint": image_entrypoint(self.p),
               "optimization_levels": self._optimization_levels()}
        deprecated = deprecated_entries(self.p.tree)
        if deprecated:  # only where a release deprecates a module entrypoint (0.29+)
            era["deprecated_entries"] = deprecated
        rec = {
            "schema": SCHEMA,
            "version": self.version,
            "source": source,
            "era": era,
            "options": options,
            "positionals": [{"dest": p["dest"], "nargs": p["nargs"]} for p in positionals],
            "engine_args": engine_args,
            "async_engine_args": async_only,
            "llm_params": self._llm_params(),
            "json_configs": json_configs,
            "env": env,
            "build_env": build_reads(self.p.tree),
            "serve_checks": serve_checks(self.p, options),
        }
        config_checks = option_class_checks(self.p, options, self._find_config_class)
        config_checks += resolver_checks(self.p, options)
        if config_checks:
            rec["config_checks"] = config_checks
        start_fields = self._start_fields(options)
        if start_fields:  # only where start-up hands values to pydantic config classes
            rec["start_fields"] = start_fields
        device_ids = device_id_checks(self.p, options)
        if device_ids:  # only where start-up resolves device ids through the platform (0.24+)
            rec["device_id_checks"] = device_ids
        refused = env_refusals(self.p.tree, accepted, env)
        if refused:  # only where start-up refuses some variables (0.34+)
            rec["env_refused"] = refused
        # round-trip through JSON so the record is plain data with sorted keys
        return json.loads(json.dumps(rec, sort_keys=True))

    _REGISTRIES = eras.REGISTRIES

    def _registered(self, dest: Any) -> Optional[list]:
        """The names registered with literal ``@Manager.register_module(...)`` decorators for the
        registry behind ``dest``'s choices, or None (unknown) when there are none or any module
        registers lazily or by other means."""
        manager = self._REGISTRIES.get(dest) if isinstance(dest, str) else None
        if manager is None or self.p.tree is None:
            return None
        names: list[str] = []
        deco = re.compile(r"@" + manager + r"\.register_module\(\s*(\[[^\]]*\]|[\"'][^\"']+[\"'])\s*\)")
        for path in sorted(self.p.tree.paths()) if hasattr(self.p.tree, "paths") else []:
            if not path.endswith(".py"):
                continue
            text = self.p.text(path) or ""
            if manager not in text:
                continue
            if "register_lazy_module" in text or re.search(manager + r"\.register_module\(\s*(module|name)\s*=", text):
                return None
            for m in deco.finditer(text):
                names.extend(re.findall(r"[\"']([^\"']+)[\"']", m.group(1)))
        return sorted(set(names)) or None

    def _enable_disable(self) -> bool:
        for path in eras.ARGPARSE_UTILS:
            text = self.p.text(path)
            if text and eras.ENABLE_DISABLE_CLASS in text and eras.ENABLE_DISABLE.found(text):
                return True
        return False

    def _option(self, a: RecordedAction, enable_disable: bool) -> Optional[dict]:
        """The record of one ``add_argument`` call (the positional's shape for a positional); the
        steps are the methods below."""
        kw = a.kwargs
        strings = [s for s in a.strings if isinstance(s, str)]
        if not strings:
            return None
        if not strings[0].startswith("-"):
            return {"__positional__": True, "dest": kw.get("dest") if isinstance(kw.get("dest"), str) else strings[0],
                    "nargs": kw.get("nargs") if isinstance(kw.get("nargs"), (str, int)) else None}
        longs = [s for s in strings if s.startswith("--")]
        name = longs[0] if longs else strings[0]
        dest = kw.get("dest")
        if not isinstance(dest, str):
            d = longs[0] if longs else strings[0]
            dest = d.lstrip("-").replace("-", "_")
        action = kw.get("action")
        action_name = _action_name(action)
        aliases = [s for s in strings if s != name]
        help_text = kw.get("help")
        hidden: list[str] = []
        if isinstance(help_text, Ref) and help_text.short == "SUPPRESS":
            hidden = list(strings)
        elif help_text == "==SUPPRESS==":
            hidden = list(strings)
        typ, optional, json_cls = norm_type(kw.get("type"))
        parses_class = json_cls is not None  # the type function itself builds the class
        if json_cls is None and isinstance(kw.get("__json_class__"), ClassInfo):
            json_cls = kw["__json_class__"]  # a dict (or string) value that builds this class later
        kind, typ, negations, aliases, hidden = _kind(kw, strings, action_name, enable_disable, typ, json_cls,
                                                      aliases, hidden)
        nargs = kw.get("nargs")
        if not isinstance(nargs, (str, int)) or isinstance(nargs, bool):
            nargs = None
        if kind in ("switch", "negatable"):
            nargs = None
        choices = kw.get("choices")
        choices_json = self._choices(choices, optional, dest) if choices is not None and choices is not UNKNOWN \
            else None
        default, computed = _default(kw, action_name)
        if a.hidden:
            hidden = sorted(set(hidden) | set(strings))
        dep_how, dep_text, value_deps = _deprecation(kw, action, help_text, choices_json)
        group = a.group
        field = kw.get("__field__") if isinstance(kw.get("__field__"), str) else None
        rec = {
            "name": name,
            "aliases": sorted(set(aliases)),
            "negations": sorted(set(negations)),
            "hidden": sorted(set(hidden)),
            "dest": dest,
            "kind": kind,
            "type": typ,
            "optional": bool(optional),
            "nargs": nargs,
            "choices": choices_json,
            "default": default,
            "default_computed": computed,
            "group": group,
            "config": field,
            "deprecated": dep_how,
            "__dep_text__": dep_text,
            "__json_class__": json_cls,
            "__parses_class__": parses_class,
        }
        self._rare_keys(rec, a, kind, value_deps, choices_json)
        return rec

    def _choices(self, choices: Any, optional: bool, dest: str) -> Optional[list]:
        """The choices as JSON values ("None" only where the word None passes the check), None when
        one is not a JSON value or they are not a container; an empty container is a registry."""
        items = list(choices) if isinstance(choices, (list, tuple, set, dict)) else None
        if items is None:
            return None
        cj: Optional[list] = []
        for c in items:
            # "None" is listed only where the word None passes the choice check: Python
            # None with a type that turns the word into it (optional_type, nullable_str),
            # or the string "None" with a type that keeps it
            if c is None:
                if optional:
                    cj.append("None")
                continue
            if c == "None" and optional:
                continue
            j, comp = to_json(c)
            if comp:
                cj = None
                break
            if j not in cj:
                cj.append(j)
        choices_json = cj
        if isinstance(choices, set) and cj is not None:
            choices_json = sorted(cj, key=repr)
        if not items:
            # an empty container here is a registry that decorators fill at import time
            # (reasoning parsers, tool parsers): the real choices are unknown, not "none",
            # unless every registration is a decorator with literal names
            choices_json = self._registered(dest)
        return choices_json

    def _rare_keys(self, rec: dict, a: RecordedAction, kind: str, value_deps: dict, choices_json) -> None:
        """The keys only some options' records carry (most have none of them)."""
        kw = a.kwargs
        transform = value_transform(kw.get("type")) if kind in ("valued", "optional_value") else None
        if transform:
            rec["transform"] = transform  # only where the type rewrites the word: most have none
        if self.kvs_fallback and wraps_json_loads(kw.get("type")):
            rec["kvs_fallback"] = True
        if a.absent_from_serve:
            rec["absent_from_serve"] = True  # only the api_server module's parser has it (0.9.0's --model)
        if value_deps:
            rec["deprecated_values"] = value_deps  # only where the help marks values: most have none
        if kw.get("__choices_platform__") and choices_json:
            rec["choices_platform"] = True  # the platform adds its device type (0.28+ --mm-processor-device)
        if kw.get("__choices_vary__") and choices_json:
            rec["choices_vary"] = [c for c in choices_json if c in kw["__choices_vary__"]]

    # -- JSON configs
    def _json_configs(self, options: list[dict]) -> dict:
        out = {}
        vllm_config = self._find_config_class("VllmConfig")
        for o in options:
            cls = o.get("__json_class__")
            if cls is None and o["kind"] in ("json", "valued") and o["type"] == "json" and vllm_config is not None:
                f = vllm_config.field(o["dest"])
                if f is not None:
                    t = self.types.resolve(f.annotation, f.module)
                    cls = next((m.cls for m in type_members(t) if m.kind == "class" and m.cls is not None
                                and m.cls.is_dataclass), None)
                    if cls is not None:
                        o["kind"] = "json"
            if cls is None or o["kind"] != "json":
                continue
            if not o.get("__parses_class__"):
                # argparse only decodes the JSON; the class is built from it at start-up
                o["class_at_start"] = True
            out[o["dest"]] = {"class": cls.name, "fields": self._class_fields(cls, init_only=True),
                              "extra": "forbid" if cls.forbids_extra() else "ignore"}
            # what the class refuses once its fields are validated (scrape/serve_checks.py)
            checks = class_checks(self.p, cls, out[o["dest"]]["fields"])
            if checks:
                out[o["dest"]]["checks"] = checks
            if any("BaseModel" in c.base_names() for c in cls.mro()):
                # a pydantic model validates the JSON itself (``model_validate_json``) in every
                # release; a dataclass was called with the keys before 0.9.2
                out[o["dest"]]["model"] = "pydantic"
        return out

    def _optimization_levels(self) -> Optional[list[int]]:
        """The values of ``OptimizationLevel`` (``-O`` / ``--optimization-level`` from 0.12, which
        ``VllmConfig`` validates at start-up), or None before it existed."""
        cls = self._find_config_class("OptimizationLevel")
        if cls is None or not cls.is_enum:
            return None
        values = [m.value for m in cls.enum_members()]
        return sorted(values) if values and all(type(v) is int for v in values) else None

    def _start_fields(self, options: list[dict]) -> dict:
        """dest -> what pydantic checks when start-up hands the option's value unchanged to a config
        class (``Class(x=self.x)`` in ``create_engine_config`` or a ``create_*_config`` helper it
        calls, on every start: not under an ``if``, a loop, a ``try``, a conditional expression or
        a comprehension): ``{"class", "constraints"?, "choices"?}``, where the class forbids extra
        keys (vLLM's pydantic configs), no validator of the class sees the field first, no method
        of ``EngineArgs`` assigns ``self.x``, and the field has literal bounds or string
        ``Literal`` choices pydantic enforces (``-dcp 0``: ``ParallelConfig``'s ``ge=1``;
        ``-dpb foo``: ``Literal["ray", "mp"]``)."""
        ea = self.p.find_class(eras.ARG_UTILS, "EngineArgs")
        if ea is None:
            return {}
        methods = ea.methods()
        engine = methods.get("create_engine_config")
        if engine is None:
            return {}
        assigned: set[str] = set()
        rebound: set[str] = set()  # what a method rebinds (not an item of the value: `self.x["k"] = v`)
        for fn in methods.values():
            assigned |= assigned_dests(fn, fn.params.params[0].name.value)
            rebound |= assigned_dests(fn, fn.params.params[0].name.value, whole=True)
        if "*" in assigned:
            return {}
        bodies = [engine] + [methods[m] for m in unconditional_self_calls(engine)
                             if m in methods and m.startswith("create_") and m.endswith("_config")
                             and m not in ("create_model_config", "create_engine_config")]
        by_dest = {o["dest"]: o for o in options}
        out: dict[str, dict] = {}
        for fn in bodies:
            self_name = fn.params.params[0].name.value
            for call in unconditional_calls(fn):
                if not isinstance(call.func, cst.Name):
                    continue
                cls = self._find_config_class(call.func.value)
                if cls is None or not _pydantic_class(cls):
                    continue
                pre = cls.prevalidated_fields()
                if pre is None:
                    continue
                fields = None
                for a in call.args:
                    dest = a.keyword.value if a.keyword is not None else None
                    v = a.value
                    if dest is None or dest in rebound or dest not in by_dest or dest in out \
                            or by_dest[dest].get("default_computed") \
                            or not (isinstance(v, cst.Attribute) and isinstance(v.value, cst.Name)
                                    and v.value.value == self_name and v.attr.value == dest):
                        continue
                    if fields is None:
                        fields = self._class_fields(cls, init_only=True)
                    f = fields.get(dest)
                    if f is None or f.get("prevalidated"):
                        continue
                    fact: dict = {}
                    if dest not in assigned and by_dest[dest].get("type") == "json" \
                            and by_dest[dest].get("kind", "valued") == "valued":
                        # the parser takes any JSON (json.loads); the field's type judges it at start
                        # (a before validator that only refuses, read above, changes nothing)
                        fact["json_type"] = f["type"]
                    items = _list_literal(self.types.resolve(cls.field(dest).annotation, cls.field(dest).module)) \
                        if dest not in assigned and by_dest[dest].get("nargs") in ("+", "*") \
                        and by_dest[dest].get("type") in (None, "str") else None
                    if items and set(by_dest[dest].get("choices") or items) - {"None"} - set(items):
                        # the parser takes words the field's list of Literals does not (0.11-0.24's
                        # `--collect-detailed-traces model,all`): start-up refuses them
                        fact["item_choices"] = items
                    if dest in pre:
                        if fact:
                            out[dest] = {"class": cls.name, "option": by_dest[dest]["name"], **fact}
                        continue
                    if dest not in assigned:
                        if f.get("constraints"):
                            fact["constraints"] = f["constraints"]
                        if f.get("choices_enforced") and f.get("choices"):
                            fact["choices"] = f["choices"]
                        if by_dest[dest].get("type") in (None, "str") and dest in version_fields(cls):
                            # an after validator parses it with packaging: a PEP 440 version or None
                            fact["version"] = True
                        if by_dest[dest].get("nargs") in ("+", "*"):
                            # an after validator refuses some items (`--numa-bind-nodes -1`)
                            items = item_checks(cls, dest, self.p.text(cls.module.path))
                            if items:
                                fact["items"] = items
                    if by_dest[dest].get("type") == "dict_or_str" and self._field_takes_no_string(cls, dest):
                        # the parser keeps a word that is not `{...}` as a string, which the class
                        # refuses (`--additional-config foo`: VllmConfig's `dict | SupportsHash`);
                        # an item set on the value first (`self.x["k"] = v`) fails on a string too
                        fact["mapping"] = True
                    if fact:
                        out[dest] = {"class": cls.name, "option": by_dest[dest]["name"], **fact}
        return out

    def _nested_keys(self, t: Any) -> Optional[list]:
        """The keys a nested config class (a field's type, ``"object": true``) takes, where it
        refuses every other (extra keys forbidden) and no model validator of it sees the input
        first: ``QuantSpec``'s ``weight`` and ``activation`` under ``--quantization-config.moe``."""
        members = [m for m in type_members(t) if m.kind == "class" and m.cls is not None]
        if len(members) != 1:
            return None
        cls = members[0].cls
        if not _pydantic_class(cls) or not cls.forbids_extra() or model_sees_input(cls):
            return None
        names = [f.name for f in cls.fields() if not f.name.startswith("_") and not _init_false(f.value)]
        return sorted(names) or None

    def _field_takes_no_string(self, cls: ClassInfo, name: str) -> bool:
        for f in cls.fields():
            if f.name == name:
                return takes_no_string(self.types.resolve(f.annotation, f.module))
        return False

    def _find_config_class(self, name: str) -> Optional[ClassInfo]:
        for mod in eras.CONFIG_MODULES:
            ci = self.p.find_class(mod, name)
            if ci is not None:
                return ci
        return None

    def _class_fields(self, cls: ClassInfo, init_only: bool = False) -> dict:
        """Fields of a dataclass; ``init_only``: only those its constructor (and so pydantic's
        validation of a JSON object) accepts: no ``field(init=False)``, no ``_private`` names."""
        from .pyresolve import Evaluator
        ev = Evaluator(self.p)
        out = {}
        rewrites = validator_rewrites(cls) if init_only else None
        lookups = enum_lookups(cls) if init_only else {}
        transforms = string_transforms(cls) if init_only else {}
        keyed = dict_lookups(cls) if init_only else {}
        # the names a nested config's fields take, from tables of the class's module (eras.NAME_TABLES)
        named = field_names(self.p.text(cls.module.path), cls.name) if init_only else {}
        # the names each item of an object field takes (eras.ITEM_NAME_TABLES)
        itemized = item_names(self.p.text(cls.module.path), cls.name) if init_only else {}
        for f in cls.fields():
            if init_only and (f.name.startswith("_") or _init_false(f.value)):
                continue
            t = self.types.resolve(f.annotation, f.module)
            if f.value is None:
                default, computed = None, False
            else:
                dv = ev.field_default(f.value, f.module)
                default, computed = (None, True) if dv is UNKNOWN else to_json(dv)
            choices = literal_choices(t)
            cj = None
            if choices is not None:
                cj, comp = to_json(choices)
                if comp:
                    cj = None
            out[f.name] = {"type": type_str(t), "choices": cj, "default": default,
                           "default_computed": computed}
            if init_only:
                # what pydantic checks beyond the type, and which values a validator of the class
                # sees before the type does (and may turn `"a,b"` into a list): scrape/field_checks.py
                out[f.name].update(pydantic_facts(f, t, rewrites))
                if out[f.name].get("object"):
                    keys = self._nested_keys(t)
                    if keys is not None:
                        out[f.name]["keys"] = keys
                        if f.name in named:
                            # a string of the field, and one of a nested key, outside them is refused
                            out[f.name]["names"] = named[f.name]["names"]
                            out[f.name]["key_names"] = {k: v for k, v in named[f.name]["key_names"].items()
                                                        if k in keys}
                if f.name in lookups:
                    out[f.name]["enum_names"] = lookups[f.name]
                if f.name in itemized and t.kind in ("generic", "union"):
                    # `{pattern: name or object}`: the names a string item takes, the keys an object does
                    values = [m for m in type_members(t) if m.kind == "generic" and m.name == "dict"
                              and len(m.args) == 2]
                    if len(values) == 1:
                        out[f.name].update(itemized[f.name])
                        keys = self._nested_keys(values[0].args[1])
                        if keys is not None:
                            out[f.name]["item_keys"] = keys
                if f.name in keyed:
                    # an object whose keys (and string items) a before validator looks up in enums
                    out[f.name].update(keyed[f.name])
                if _pydantic_class(cls) and required_field(f):
                    # no default: a value of the option without this key fails when the class is built
                    out[f.name]["required"] = True
            pv = out[f.name].get("prevalidated")
            rewrite = transforms.get(f.name) if init_only else None
            if rewrite is not None and pv == ["str"]:
                # the validator only rewrites a string (`value.lower().replace("-", "_")`) before
                # the type checks it: the rewritten word must be a choice
                out[f.name]["transform"] = rewrite
                pv = None
            if init_only and cj and (pv is None or pv is not True and "str" not in pv) \
                    and all(m.kind == "literal" or m.kind == "builtin" and m.name == "NoneType"
                            for m in type_members(t)) \
                    and all(isinstance(c, str) for c in cj):
                # a string Literal that no validator of the class sees first: pydantic refuses any
                # other value (an enum, or a validator that rewrites the value, may accept more)
                out[f.name]["choices_enforced"] = True
        return out

    # -- EngineArgs / LLM
    def _engine_args(self) -> tuple[dict, list]:
        ea = self.p.find_class(eras.ARG_UTILS, "EngineArgs")
        if ea is None:
            raise ExtractionError(f"{eras.module_path(eras.ARG_UTILS)} has no EngineArgs class")
        fields = self._class_fields(ea)
        engine = {k: {"type": v["type"], "default": v["default"], "default_computed": v["default_computed"]}
                  for k, v in fields.items()}
        aea = self.p.find_class(eras.ARG_UTILS, "AsyncEngineArgs")
        async_only = []
        if aea is not None:
            async_only = sorted(f.name for f in aea.fields() if f.name not in engine)
        return engine, async_only

    def _llm_params(self) -> list:
        llm = self.p.find_class(eras.LLM, "LLM")
        if llm is None:
            return []
        init = llm.method("__init__")
        if init is None:
            return []
        ps = init.node.params
        names = [p.name.value for p in [*ps.posonly_params, *ps.params, *ps.kwonly_params]]
        return [n for n in names if n not in ("self",)]


def _list_literal(t: Any) -> Optional[list]:
    """The strings of ``list[Literal[...]]`` (or it or None), else None."""
    members = [m for m in type_members(t) if not (m.kind == "builtin" and m.name == "NoneType")]
    if len(members) != 1 or members[0].kind != "generic" or members[0].name != "list" or len(members[0].args) != 1:
        return None
    item = members[0].args[0]
    if item.kind != "literal" or not item.args or not all(isinstance(v, str) for v in item.args):
        return None
    return list(item.args)


def _pydantic_class(ci: ClassInfo) -> bool:
    """The class validates its fields with pydantic: a pydantic model, or a class (or a base)
    decorated ``@dataclass`` in a module that takes ``dataclass`` from ``pydantic.dataclasses``
    (or ``@pydantic_dataclass``, or a ``config`` decorator that makes one, 0.14+)."""
    if "BaseModel" in ci.base_names() or ci.forbids_extra():
        return True
    for c in ci.mro():
        names = c.decorator_names()
        text = c.project.text(c.module.path) or ""
        if "pydantic_dataclass" in names or "dataclass" in names and re.search(
                r"^from pydantic\.dataclasses import (?:\(\s*)?(?:\w+,\s*)*dataclass\b", text, re.M):
            return True
    return False


def _class_text(ci: ClassInfo) -> str:
    return ci.module.node.code_for_node(ci.node)


# keep names referenced for type checkers
_ = (TypeHint, _Unknown, Lambda)


def _init_false(value) -> bool:
    """``field(..., init=False)`` / ``Field(init=False)``."""
    if not isinstance(value, cst.Call):
        return False
    for a in value.args:
        if a.keyword is not None and a.keyword.value == "init" and isinstance(a.value, cst.Name) \
                and a.value.value == "False":
            return True
    return False


_FROM = re.compile(r"^FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?\s*$", re.I)
_ENTRYPOINT = re.compile(r"^ENTRYPOINT\s+(\[.*\])\s*$", re.I)


def image_entrypoint(p, stage: str = "vllm-openai") -> Optional[list[str]]:
    """The exec-form ``ENTRYPOINT`` of the ``vllm-openai`` stage of vLLM's own Dockerfile (what
    ``docker run vllm/vllm-openai:vX ARGS`` runs ARGS after), following the stage's ``FROM`` to
    an earlier stage when it sets none; None when there is no such Dockerfile or stage."""
    text = None
    for path in eras.DOCKERFILES:
        text = p.text(path)
        if text:
            break
    if not text:
        return None
    parent: dict[str, str] = {}
    entry: dict[str, list[str]] = {}
    current = None
    for raw in re.sub(r"\\\r?\n", " ", text).splitlines():
        line = raw.strip()
        m = _FROM.match(line)
        if m:
            current = m.group(2) or m.group(1)
            parent[current] = m.group(1)
            continue
        m = _ENTRYPOINT.match(line)
        if m and current is not None:
            try:
                words = json.loads(m.group(1))
            except ValueError:
                continue
            if isinstance(words, list) and all(isinstance(w, str) for w in words):
                entry[current] = words
    seen = set()
    while stage is not None and stage not in seen:
        if stage in entry:
            return entry[stage]
        seen.add(stage)
        stage = parent.get(stage)
    return None
