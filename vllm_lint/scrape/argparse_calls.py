"""A small abstract interpreter for vLLM's parser-building code.

It walks the statements of the functions that build the ``vllm serve`` parser (``subparser_init``,
``make_arg_parser``, ``FrontendArgs.add_cli_args``, ``EngineArgs.add_cli_args``, ...) and records
every ``add_argument`` call with its evaluated arguments. ``get_kwargs(SomeConfig)`` is not
interpreted from vLLM's source but modelled here (``KwargsModel``), with the few behaviours that
changed between releases detected from the text of vLLM's own implementation.

``if`` tests are evaluated twice: for ``vllm serve MODEL --some-flag`` (the run context) and for
``vllm serve --help`` (the help context). Arguments added only in the run context are recorded as
hidden; arguments whose test cannot be evaluated are skipped and reported in ``notes``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import libcst as cst

from . import eras
from .pyresolve import (
    UNKNOWN,
    BoundMethod,
    CallOf,
    ClassInfo,
    EnumMember,
    Evaluator,
    FuncRef,
    Instance,
    Lambda,
    ModRef,
    Module,
    Project,
    Ref,
    TypeHint,
    TypeResolver,
    _dotted,
    _truthy,
    bind_target,
    iterate,
    type_members,
)

# the argv the parser-building code is evaluated under (a launch, `vllm serve --help`, and the
# OpenAI api_server module's launch, for options that exist for that program only): eras.py
RUN_ARGV = list(eras.RUN_ARGV)
HELP_ARGV = list(eras.HELP_ARGV)
API_SERVER_ARGV = list(eras.API_SERVER_ARGV)


# --------------------------------------------------------------------------- parser objects


@dataclass
class RecordedAction:
    strings: list
    kwargs: dict
    group: Optional[str]
    hidden: bool  # added only when --help is absent
    absent_from_serve: bool = False  # added only when argv does not name `serve` (api_server)


@dataclass(eq=False)
class ParserObj:
    name: Optional[str] = None
    actions: list = field(default_factory=list)
    flexible: bool = True
    add_help: bool = True


@dataclass(eq=False)
class GroupObj:
    parser: ParserObj
    title: Optional[str]


@dataclass(eq=False)
class SubparsersObj:
    parent: ParserObj


@dataclass(eq=False)
class ObjMethod:
    obj: Any
    name: str


@dataclass(eq=False)
class SuperObj:
    owner: ClassInfo
    self_value: Any


class _Return(Exception):
    def __init__(self, value: Any):
        self.value = value


_PARSER_CLASSES = eras.PARSER_CLASSES


def _field_hints(t: TypeHint) -> list[TypeHint]:
    """The members of a field's type, each once, a dict subclass read as ``dict``."""
    hints = []
    for m in type_members(t):
        if m.kind == "class" and m.cls is not None and m.cls.is_dict_subclass:
            m = TypeHint("builtin", "dict")
        if m not in hints:
            hints.append(m)
    return hints


# --------------------------------------------------------------------------- get_kwargs model


class KwargsModel:
    """vLLM's ``get_kwargs(ConfigClass)``: argparse kwargs derived from dataclass fields."""

    def __init__(self, project: Project, arg_utils: Optional[Module]):
        self.project = project
        self.types = TypeResolver(project)
        self.ev = Evaluator(project)
        text = ""
        if arg_utils is not None:
            for name in eras.KWARGS_FUNCTIONS:
                b = arg_utils.bindings.get(name)
                if b and b[0] == "func":
                    text += arg_utils.node.code_for_node(b[1])
        self.text = text
        # what get_kwargs does differently between releases, told by markers in its text (eras.py)
        self.bool_str_none = eras.KWARGS_BOOL_STR_NONE.found(text)
        self.dataclass_json = eras.KWARGS_DATACLASS_JSON.found(text)
        self.dict_optional_json = eras.KWARGS_DICT_OPTIONAL_JSON.found(text)
        self.dict_or_str = eras.KWARGS_DICT_OR_STR.found(text)
        # only Python None among the choices accepts the word None (optional_type turns the word
        # into None before the choice check); the string "None" accepts nothing
        self.none_choice: Any = None if eras.KWARGS_NONE_CHOICE.found(text) else "None"
        self.literal_in_collection = eras.KWARGS_LITERAL_IN_COLLECTION.found(text)
        self.set_collection = eras.KWARGS_SET_COLLECTION.found(text)
        self.human_int_or_auto = eras.KWARGS_HUMAN_INT_OR_AUTO.found(text)
        self.human_int_fields: set = eras.human_int_fields(text)
        self._cache: dict = {}

    def kwargs(self, cls: ClassInfo) -> dict:
        if cls not in self._cache:
            self._cache[cls] = self._compute(cls)
        return _deepcopy(self._cache[cls])

    def field_type(self, f) -> TypeHint:
        return self.types.resolve(f.annotation, f.module)

    def _compute(self, cls: ClassInfo) -> dict:
        """Field name -> the argparse kwargs ``get_kwargs`` gives it: its default and help, its
        ``type`` (and ``nargs``, ``choices``, ``action``) by its type hints, made optional where
        the hints allow None."""
        out: dict = {}
        for f in cls.fields():
            t = self.field_type(f)
            hints = _field_hints(t)
            default = self.ev.field_default(f.value, f.module) if f.value is not None else UNKNOWN
            if f.value is None:
                default = UNKNOWN  # a required field: MISSING
            kw: dict = {"default": default, "help": f.doc or "", "__doc__": f.doc or "",
                        "__field__": f"{cls.name}.{f.name}", "__type__": t}
            names = {h.name if h.kind in ("builtin", "generic") else h.kind for h in hints}
            # a class named in a string inside the annotation (`Union[dict, "PoolerConfig"]`) is a
            # ForwardRef at run time: not a dataclass to vLLM's is_dataclass, but not a builtin
            quoted = _quoted_names(f.annotation)
            dc = next((h.cls for h in hints if h.kind == "class" and h.cls is not None and h.cls.is_dataclass
                       and h.cls.name not in quoted), None)
            forward = next((h.cls for h in hints if h.kind == "class" and h.cls is not None and h.cls.is_dataclass
                            and h.cls.name in quoted), None)
            if forward is not None:
                kw["__json_class__"] = forward  # the class the dict builds later: its keys
            has_none = any(h.kind == "builtin" and h.name == "NoneType" for h in hints)
            is_bool = "bool" in names
            self._type_kwargs(kw, f, hints, names, dc)
            if has_none and not is_bool and not (dc is not None and self.dataclass_json and False):
                self._optional(kw, names)
            out[f.name] = kw
        return out

    def _type_kwargs(self, kw: dict, f, hints: list, names: set, dc) -> None:
        """``type`` (or ``action``; ``nargs``, ``const``, ``choices``) by the field's type hints, in
        ``get_kwargs``' order: a dataclass, bool/str/None, bool, a Literal, a collection, int,
        float, a dict, else str."""
        is_bool = "bool" in names
        if dc is not None and self.dataclass_json:
            kw["type"] = Ref(eras.PARSE_DATACLASS, (dc,))
        elif self.bool_str_none and len(hints) == 3 and {"bool", "str", "NoneType"} <= names:
            kw["type"] = Ref("str")
            kw["nargs"] = "?"
            kw["const"] = True
        elif is_bool:
            kw["action"] = Ref("argparse.BooleanOptionalAction")
        elif "literal" in names:
            self._literal_union_kwargs(kw, hints, names)
        elif "tuple" in names or "list" in names or (self.set_collection and "set" in names):
            self._collection_kwargs(kw, hints, names)
        elif "int" in names:
            if f.name == eras.HUMAN_INT_OR_AUTO_FIELD and self.human_int_or_auto:
                kw["type"] = Ref("human_readable_int_or_auto")
            elif f.name in self.human_int_fields:
                kw["type"] = Ref("human_readable_int")
            else:
                kw["type"] = Ref("int")
        elif "float" in names:
            kw["type"] = Ref("float")
        elif "dict" in names and self.dict_or_str and ("str" in names or any(
                h.kind in ("class", "other") or h.kind == "builtin" and h.name == "Any" for h in hints)):
            # vLLM's is_not_builtin: a class, or a name bound to ``Any`` at run time
            # (``TensorizerConfig = Any`` outside TYPE_CHECKING, 0.10-0.33)
            kw["type"] = Ref("union_dict_and_str")
        elif "dict" in names:
            kw["type"] = CallOf(eras.OPTIONAL_TYPE, (Ref("json.loads"),)) if self.dict_optional_json \
                else CallOf(eras.PARSE_TYPE, (Ref("json.loads"),))
        else:
            kw["type"] = Ref("str")

    def _literal_union_kwargs(self, kw: dict, hints: list, names: set) -> None:
        """A Literal field's choices (a union of Literals: every value, those not in all marked)."""
        lits = [h for h in hints if h.kind == "literal"]
        kw.update(self._literal_kwargs(lits[0], "str" in names))
        if len(lits) > 1 and "choices" in kw:
            # get_kwargs takes one Literal of the union, the first of a *set* of type
            # hints: which one changes from process to process (0.8.5's
            # --guided-decoding-backend); a value missing from one is refused at random
            every = set.intersection(*(set(h.args) for h in lits))
            union = list(dict.fromkeys(v for h in lits for v in h.args))
            kw["__choices_vary__"] = [v for v in union if v not in every]
            kw["choices"] = _sorted_if_possible(union)

    def _collection_kwargs(self, kw: dict, hints: list, names: set) -> None:
        """A tuple, list (or set) field: ``nargs`` (the tuple's length, else "+") and its elements' type."""
        kind = "tuple" if "tuple" in names else ("list" if "list" in names else "set")
        coll = next(h for h in hints if h.name == kind)
        elems = [a for a in coll.args]
        elem = elems[0] if elems else TypeHint("builtin", "str")
        if elem.kind == "union":
            elem = TypeHint("builtin", "str")
        if kind == "tuple" and elems and not any(a.kind == "builtin" and a.name == "Ellipsis" for a in elems):
            kw["nargs"] = len(elems)
        else:
            kw["nargs"] = "+"
        if elem.kind == "literal" and self.literal_in_collection:
            kw.update(self._literal_kwargs(elem, False))
        else:
            kw["type"] = _hint_to_ref(elem)

    def _optional(self, kw: dict, names: set) -> None:
        """A field that may be None: its type wrapped in ``optional_type`` (a dict's already is
        where get_kwargs builds it so), and None among its choices as the release spells it."""
        if not (self.dict_optional_json and "dict" in names and "type" in kw
                and isinstance(kw["type"], CallOf) and kw["type"].short == eras.OPTIONAL_TYPE):
            kw["type"] = CallOf(eras.OPTIONAL_TYPE, (kw.get("type", Ref("str")),))
        if kw.get("choices"):
            kw["choices"].append(self.none_choice)

    @staticmethod
    def _literal_kwargs(lit: TypeHint, with_str: bool) -> dict:
        opts = list(lit.args)
        typ = Ref(type(opts[0]).__name__) if opts else Ref("str")
        opts = _sorted_if_possible(opts)
        return {"type": typ, "metavar": opts} if with_str else {"type": typ, "choices": opts}


def _sorted_if_possible(values: list) -> list:
    """``sorted(values)`` as vLLM's get_kwargs sorts Literal choices; as given where they mix types."""
    try:
        return sorted(values)
    except TypeError:
        return list(values)


def _quoted_names(ann: Optional[cst.BaseExpression]) -> set:
    """The names written as strings inside a subscripted annotation (forward references)."""
    if not isinstance(ann, cst.Subscript):
        return set()
    out: set = set()

    class _Strings(cst.CSTVisitor):
        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            out.add(str(node.evaluated_value).strip())

    ann.visit(_Strings())
    return out


def _hint_to_ref(h: TypeHint) -> Any:
    if h.kind == "builtin" and h.name in ("int", "float", "str", "bool"):
        return Ref(h.name)
    if h.kind == "generic" and h.name == "dict":
        return Ref("json.loads")
    if h.kind == "class" and h.cls is not None:
        return h.cls
    return Ref("str")


def _deepcopy(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _deepcopy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_deepcopy(x) for x in v]
    return v


# --------------------------------------------------------------------------- interpreter


class Interpreter(Evaluator):
    def __init__(self, project: Project, kwargs_model: KwargsModel, context: Optional[dict] = None):
        super().__init__(project, context or {"argv": RUN_ARGV})
        self.kwargs_model = kwargs_model
        self.help_ev = Evaluator(project, {"argv": HELP_ARGV})
        self.api_server_ev = Evaluator(project, {"argv": API_SERVER_ARGV})
        self.parsers: list[ParserObj] = []
        self.called: list[FuncRef] = []
        self.notes: list[str] = []
        self.hidden_depth = 0
        self.absent_from_serve_depth = 0
        self.call_depth = 0

    # -- objects
    def attr(self, base: Any, attr: str) -> Any:
        if isinstance(base, (ParserObj, GroupObj, SubparsersObj)):
            return ObjMethod(base, attr)
        if isinstance(base, SuperObj):
            mro = base.self_value.mro() if isinstance(base.self_value, ClassInfo) else (
                base.self_value.cls.mro() if isinstance(base.self_value, Instance) and base.self_value.cls else [])
            after = False
            for c in mro:
                if after:
                    for stmt in c.node.body.body:
                        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == attr:
                            return BoundMethod(FuncRef(c.module, stmt, c), base.self_value)
                if c == base.owner:
                    after = True
            return UNKNOWN
        if isinstance(base, (dict, list, set)):
            return ObjMethod(base, attr)
        return super().attr(base, attr)

    def apply(self, fn: Any, args: list, kwargs: dict, e: cst.Call, module: Module, env: dict) -> Any:
        if isinstance(fn, ObjMethod):
            if fn.name == "add_argument" and kwargs.get("choices") is UNKNOWN:
                fixed = _platform_choices(e)
                if fixed is not None:  # `["auto", "cpu"] + [current_platform.device_type] ...`
                    kwargs = dict(kwargs, choices=fixed, __choices_platform__=True)
            return self._obj_method(fn, args, kwargs)
        if isinstance(fn, Ref):
            if fn.short in _PARSER_CLASSES:
                p = ParserObj(flexible=fn.short == "FlexibleArgumentParser",
                              add_help=kwargs.get("add_help", True) is not False)
                self.parsers.append(p)
                return p
            if fn.name == "super" and not args:
                owner = env.get("__owner__")
                if owner is not None:
                    return SuperObj(owner, env.get("__self__"))
                return UNKNOWN
            if fn.short == "get_kwargs" and args and isinstance(args[0], ClassInfo):
                return self.kwargs_model.kwargs(args[0])
        if isinstance(fn, ClassInfo):
            if fn.name in _PARSER_CLASSES:
                p = ParserObj(flexible=True, add_help=kwargs.get("add_help", True) is not False)
                self.parsers.append(p)
                return p
            return Instance(fn)
        if isinstance(fn, FuncRef) and fn.name in eras.KWARGS_BUILDERS and args \
                and isinstance(args[0], ClassInfo):
            return self.kwargs_model.kwargs(args[0])
        if isinstance(fn, (FuncRef, BoundMethod)) and self._should_interpret(fn, args, kwargs):
            return self.invoke(fn, args, kwargs)
        return super().apply(fn, args, kwargs, e, module, env)

    def _should_interpret(self, fn: Any, args: list, kwargs: dict) -> bool:
        func = fn.func if isinstance(fn, BoundMethod) else fn
        if func.name in eras.PARSER_BUILDERS:
            return True
        interesting = (ParserObj, GroupObj, SubparsersObj)
        vals = list(args) + list(kwargs.values())
        if any(isinstance(v, interesting) for v in vals):
            code = func.module.node.code_for_node(func.node)
            return "add_argument" in code
        return False

    def _obj_method(self, m: ObjMethod, args: list, kwargs: dict) -> Any:
        obj, name = m.obj, m.name
        if isinstance(obj, (ParserObj, GroupObj)):
            parser = obj if isinstance(obj, ParserObj) else obj.parser
            if name == "add_argument":
                group = obj.title if isinstance(obj, GroupObj) else None
                if any(a is UNKNOWN for a in args):
                    self.notes.append(f"add_argument with unresolved option strings {args!r}")
                    return UNKNOWN
                parser.actions.append(RecordedAction(list(args), dict(kwargs), group, self.hidden_depth > 0,
                                                     self.absent_from_serve_depth > 0))
                return UNKNOWN
            if name == "add_argument_group":
                title = kwargs.get("title", args[0] if args else None)
                return GroupObj(parser, title if isinstance(title, str) else None)
            if name == "add_mutually_exclusive_group":
                return GroupObj(parser, obj.title if isinstance(obj, GroupObj) else None)
            if name == "add_subparsers":
                return SubparsersObj(parser)
            return UNKNOWN
        if isinstance(obj, SubparsersObj):
            if name == "add_parser":
                p = ParserObj(name=args[0] if args and isinstance(args[0], str) else None,
                              flexible=obj.parent.flexible,
                              add_help=kwargs.get("add_help", True) is not False)
                self.parsers.append(p)
                return p
            return UNKNOWN
        if isinstance(obj, dict):
            try:
                if name == "pop":
                    return obj.pop(args[0], *args[1:2]) if len(args) > 1 else obj.pop(args[0], UNKNOWN)
                if name == "update":
                    if args and isinstance(args[0], dict):
                        obj.update(args[0])
                    obj.update(kwargs)
                    return None
                if name == "setdefault":
                    return obj.setdefault(args[0], args[1] if len(args) > 1 else None)
                if name == "items":
                    return list(obj.items())
                if name == "keys":
                    return list(obj.keys())
                if name == "values":
                    return list(obj.values())
                if name == "get":
                    return obj.get(args[0], args[1] if len(args) > 1 else None)
                if name == "copy":
                    return dict(obj)
            except (TypeError, KeyError, IndexError):
                return UNKNOWN
            return UNKNOWN
        if isinstance(obj, list):
            try:
                if name == "remove":
                    if args[0] in obj:
                        obj.remove(args[0])
                    return None
                if name == "append":
                    obj.append(args[0])
                    return None
                if name == "extend":
                    items = iterate(args[0])
                    if items is not None:
                        obj.extend(items)
                    return None
                if name == "copy":
                    return list(obj)
            except (TypeError, IndexError):
                return UNKNOWN
            return UNKNOWN
        if isinstance(obj, set):
            if name == "add" and args:
                obj.add(args[0])
            return UNKNOWN
        return UNKNOWN

    # -- function invocation
    def invoke(self, fn: Any, args: list, kwargs: dict) -> Any:
        if self.call_depth > 25:
            return UNKNOWN
        self_value = None
        if isinstance(fn, BoundMethod):
            func, self_value = fn.func, fn.self_value
        else:
            func = fn
        self.called.append(func)
        node = func.node
        decos = {(_dotted(d.decorator) or "").rsplit(".", 1)[-1] for d in node.decorators}
        params = list(node.params.params)
        posonly = list(node.params.posonly_params)
        params = posonly + params
        env: dict = {"__owner__": func.owner, "__self__": None}
        if func.owner is not None and "staticmethod" not in decos and params:
            first = params.pop(0)
            bound = self_value if self_value is not None else (
                func.owner if "classmethod" in decos else Instance(func.owner))
            env[first.name.value] = bound
            env["__self__"] = bound
        for i, p in enumerate(params):
            pname = p.name.value
            if i < len(args):
                env[pname] = args[i]
            elif pname in kwargs:
                env[pname] = kwargs[pname]
            elif p.default is not None:
                env[pname] = self.eval(p.default, func.module, env)
            else:
                env[pname] = UNKNOWN
        for p in node.params.kwonly_params:
            pname = p.name.value
            env[pname] = kwargs.get(pname, self.eval(p.default, func.module, env) if p.default else UNKNOWN)
        self.call_depth += 1
        try:
            self.exec_block(node.body.body if isinstance(node.body, cst.IndentedBlock) else [node.body],
                            func.module, env)
        except _Return as r:
            return r.value
        finally:
            self.call_depth -= 1
        return None

    def exec_block(self, body, module: Module, env: dict) -> None:
        for stmt in body:
            self.exec_stmt(stmt, module, env)

    def exec_stmt(self, stmt, module: Module, env: dict) -> None:  # noqa: C901
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                self.exec_small(small, module, env)
        elif isinstance(stmt, cst.If):
            self.exec_if(stmt, module, env)
        elif isinstance(stmt, cst.For):
            it = self.eval(stmt.iter, module, env)
            items = iterate(it)
            if items is None:
                if _has_add_argument(stmt, module):
                    self.notes.append("loop over an unresolved iterable adds arguments: "
                                      + module.node.code_for_node(stmt.iter))
                return
            for item in items:
                if not bind_target(stmt.target, item, env):
                    break
                self.exec_block(stmt.body.body, module, env)
        elif isinstance(stmt, cst.With):
            self.exec_block(stmt.body.body, module, env)
        elif isinstance(stmt, cst.Try):
            self.exec_block(stmt.body.body, module, env)
        elif isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            env[stmt.name.value] = FuncRef(module, stmt) if isinstance(stmt, cst.FunctionDef) else UNKNOWN

    def exec_if(self, stmt: cst.If, module: Module, env: dict) -> None:
        test = self.eval(stmt.test, module, env)
        if test is UNKNOWN:
            if _has_add_argument(stmt, module):
                self.notes.append("skipped a conditional that adds arguments: "
                                  + module.node.code_for_node(stmt.test))
            return
        run = _truthy(test)
        help_test = self.help_ev.eval(stmt.test, module, {k: v for k, v in env.items()})
        help_true = run if help_test is UNKNOWN else _truthy(help_test)
        if run:
            hidden = not help_true
            if hidden:
                self.hidden_depth += 1
            try:
                self.exec_block(stmt.body.body, module, env)
            finally:
                if hidden:
                    self.hidden_depth -= 1
        elif stmt.orelse is None and _has_add_argument(stmt, module) and _truthy_known(
                self.api_server_ev.eval(stmt.test, module, {k: v for k, v in env.items()})):
            # skipped under `vllm serve`, run under the api_server module's argv: its options
            # exist for that program only (0.9.0's `--model`)
            self.absent_from_serve_depth += 1
            try:
                self.exec_block(stmt.body.body, module, env)
            finally:
                self.absent_from_serve_depth -= 1
        elif stmt.orelse is not None:
            if isinstance(stmt.orelse, cst.If):
                self.exec_if(stmt.orelse, module, env)
            else:
                self.exec_block(stmt.orelse.body.body, module, env)

    def exec_small(self, small, module: Module, env: dict) -> None:  # noqa: C901
        if isinstance(small, cst.Expr):
            self.eval(small.value, module, env)
        elif isinstance(small, cst.Assign):
            value = self.eval(small.value, module, env)
            for t in small.targets:
                self.assign(t.target, value, module, env)
        elif isinstance(small, cst.AnnAssign):
            if small.value is not None:
                self.assign(small.target, self.eval(small.value, module, env), module, env)
        elif isinstance(small, cst.AugAssign):
            if isinstance(small.target, cst.Name):
                cur = env.get(small.target.value, UNKNOWN)
                add = self.eval(small.value, module, env)
                if isinstance(small.operator, cst.AddAssign) and type(cur) is type(add) \
                        and isinstance(cur, (str, list, int)):
                    env[small.target.value] = cur + add
                else:
                    env[small.target.value] = UNKNOWN
            elif isinstance(small.target, cst.Subscript):
                container = self.eval(small.target.value, module, env)
                key = self._sub_key(small.target, module, env)
                add = self.eval(small.value, module, env)
                if isinstance(container, dict) and key is not UNKNOWN:
                    cur = container.get(key, UNKNOWN)
                    if isinstance(small.operator, cst.AddAssign) and type(cur) is type(add) \
                            and isinstance(cur, (str, list)):
                        container[key] = cur + add
                    else:
                        container[key] = UNKNOWN
        elif isinstance(small, cst.Return):
            raise _Return(self.eval(small.value, module, env) if small.value is not None else None)
        elif isinstance(small, cst.Del):
            t = small.target
            targets = [el.value for el in t.elements] if isinstance(t, cst.Tuple) else [t]
            for tt in targets:
                if isinstance(tt, cst.Subscript):
                    container = self.eval(tt.value, module, env)
                    key = self._sub_key(tt, module, env)
                    if isinstance(container, dict) and key is not UNKNOWN:
                        container.pop(key, None)
        elif isinstance(small, cst.ImportFrom):
            if isinstance(small.names, cst.ImportStar):
                return
            rel = len(small.relative)
            target = _dotted(small.module) if small.module is not None else None
            src = self.project._abs_import(module, rel, target)
            for alias in small.names:
                name = _dotted(alias.name)
                asname = alias.asname.name.value if alias.asname else name
                r = self.project.lookup(src, name)
                env[asname] = Ref(f"{src}.{name}") if r is None else self._binding_value(r, name)
        elif isinstance(small, cst.Import):
            for alias in small.names:
                full = _dotted(alias.name)
                if alias.asname:
                    env[alias.asname.name.value] = ModRef(full)
                else:
                    env[full.split(".")[0]] = ModRef(full.split(".")[0])

    def _sub_key(self, sub: cst.Subscript, module: Module, env: dict) -> Any:
        if len(sub.slice) != 1 or not isinstance(sub.slice[0].slice, cst.Index):
            return UNKNOWN
        return self.eval(sub.slice[0].slice.value, module, env)

    def assign(self, target, value: Any, module: Module, env: dict) -> None:
        if isinstance(target, cst.Name):
            env[target.value] = value
        elif isinstance(target, (cst.Tuple, cst.List)):
            if not bind_target(target, value, env):
                for el in target.elements:
                    if isinstance(el.value, cst.Name):
                        env[el.value.value] = UNKNOWN
        elif isinstance(target, cst.Subscript):
            container = self.eval(target.value, module, env)
            key = self._sub_key(target, module, env)
            if isinstance(container, dict) and key is not UNKNOWN:
                container[key] = value
            elif isinstance(container, list) and isinstance(key, int):
                try:
                    container[key] = value
                except IndexError:
                    pass
        elif isinstance(target, cst.Attribute):
            base = self.eval(target.value, module, env)
            if isinstance(base, Instance):
                base.attrs[target.attr.value] = value


def _truthy_known(v: Any) -> bool:
    """True only for a value the evaluator resolved and Python finds true."""
    return v is not UNKNOWN and _truthy(v)


def _has_add_argument(node: cst.CSTNode, module: Module) -> bool:
    return "add_argument" in module.node.code_for_node(node)


__all__ = [
    "EnumMember",
    "Interpreter",
    "KwargsModel",
    "Lambda",
    "ParserObj",
    "RecordedAction",
]


def _platform_choices(call: cst.Call) -> Optional[list]:
    """The literal strings of a ``choices=`` written as a list of strings plus values the platform
    gives (an expression naming one of ``eras.PLATFORM_VALUES``: 0.28+ ``--mm-processor-device``'s
    ``["auto", "cpu"] + ([current_platform.device_type] if ... else [])``), or None."""
    arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "choices"), None)
    if not (isinstance(arg, cst.BinaryOperation) and isinstance(arg.operator, cst.Add)
            and isinstance(arg.left, cst.List)):
        return None
    items = [el.value.evaluated_value for el in arg.left.elements
             if isinstance(el, cst.Element) and isinstance(el.value, cst.SimpleString)]
    if not items or len(items) != len(arg.left.elements):
        return None
    right = cst.Module(body=[]).code_for_node(arg.right)
    if not any(v in right for v in eras.PLATFORM_VALUES):
        return None
    return items
