"""What pydantic checks in a config-class field beyond its type, read statically (libcst only).

Two facts per field of a JSON config option's class (``json_configs`` of a release record):

* ``constraints``: the numeric bounds and lengths a field declares with literal numbers,
  ``Field(gt=0)``, ``Annotated[int, Field(ge=1)]`` or pydantic's ``PositiveInt`` family;
* ``prevalidated``: what a validator of the class sees before the field's type does
  (``field_validator(..., mode="before" | "wrap")``, ``model_validator(mode="before" | "wrap")``).
  Each such validator's body is read: a value it passes on unchanged (a before validator's
  ``return value``, a wrap validator's ``return handler(value)``) or refuses (``raise``, ``assert``) is still judged by the type;
  the JSON kinds of value it may turn into something else (``isinstance(value, str)``:
  ``value.split(",")``) are listed. ``True`` where the body is not understood, a ``plain``
  validator replaces the type check, or the annotation carries a validator of its own
  (``SkipValidation``, ``Annotated[..., BeforeValidator(...)]``).
"""

from __future__ import annotations

from typing import Optional, Union

import libcst as cst

from ..surface.db import WORD_METHODS
from .pyresolve import ClassInfo, FieldInfo, TypeHint, _dotted, type_members

KINDS = frozenset({"null", "bool", "int", "float", "str", "list", "object"})

# what isinstance(value, NAME) may be true for, among the values JSON gives
_ISINSTANCE = {
    "str": {"str"}, "int": {"int", "bool"}, "float": {"float"}, "bool": {"bool"},
    "dict": {"object"}, "Mapping": {"object"}, "MutableMapping": {"object"},
    "list": {"list"}, "tuple": set(), "set": set(), "frozenset": set(), "bytes": set(),
    "Sequence": {"str", "list"}, "Iterable": {"str", "list", "object"},
    "Collection": {"str", "list", "object"}, "NoneType": {"null"},
    "Number": {"int", "float", "bool"}, "Integral": {"int", "bool"}, "Real": {"int", "float", "bool"},
}

_BOUNDS = ("gt", "ge", "lt", "le", "min_length", "max_length")
_PYDANTIC_NAMED = {"PositiveInt": ("gt", 0), "NonNegativeInt": ("ge", 0), "NegativeInt": ("lt", 0),
                   "NonPositiveInt": ("le", 0), "PositiveFloat": ("gt", 0), "NonNegativeFloat": ("ge", 0),
                   "NegativeFloat": ("lt", 0), "NonPositiveFloat": ("le", 0)}
_OWN_VALIDATION = {"SkipValidation", "BeforeValidator", "PlainValidator", "WrapValidator",
                   "GetPydanticSchema", "InstanceOf"}
_LOG_CALLS = ("logger.", "logging.", "warnings.warn", "warn", "print")


class _Unknown(Exception):
    pass


# --------------------------------------------------------------------------- constraints


def _number(node: cst.BaseExpression) -> Optional[Union[int, float]]:
    if isinstance(node, cst.Integer):
        return int(node.evaluated_value)
    if isinstance(node, cst.Float):
        return float(node.evaluated_value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _number(node.expression)
        return None if inner is None else -inner
    return None


def _call_bounds(call: cst.BaseExpression) -> dict:
    if not isinstance(call, cst.Call) or (_dotted(call.func) or "").rsplit(".", 1)[-1] != "Field":
        return {}
    out = {}
    for a in call.args:
        if a.keyword is not None and a.keyword.value in _BOUNDS:
            n = _number(a.value)
            if n is not None and not isinstance(n, bool):
                out[a.keyword.value] = n
    return out


def _short(node: cst.BaseExpression) -> str:
    return (_dotted(node) or "").rsplit(".", 1)[-1]


def _annotation_members(ann: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(ann, cst.BinaryOperation) and isinstance(ann.operator, cst.BitOr):
        return _annotation_members(ann.left) + _annotation_members(ann.right)
    if isinstance(ann, cst.Subscript) and _short(ann.value) in ("Optional", "Union"):
        return [m for s in ann.slice if isinstance(s.slice, cst.Index)
                for m in _annotation_members(s.slice.value)]
    return [ann]


def field_constraints(f: FieldInfo) -> Optional[dict]:
    """The literal bounds pydantic checks on the field's value: ``Field(gt=0)`` as its default,
    ``Annotated[int, Field(gt=0)]`` / ``PositiveInt`` as (a member of) its annotation."""
    out = _call_bounds(f.value) if f.value is not None else {}
    if f.annotation is not None:
        for m in _annotation_members(f.annotation):
            if isinstance(m, cst.Subscript) and _short(m.value) == "Annotated":
                for s in list(m.slice)[1:]:
                    if isinstance(s.slice, cst.Index):
                        out.update(_call_bounds(s.slice.value))
            elif _short(m) in _PYDANTIC_NAMED and _from_pydantic(f, _short(m)):
                k, n = _PYDANTIC_NAMED[_short(m)]
                out.setdefault(k, n)
    return out or None


def _from_pydantic(f: FieldInfo, name: str) -> bool:
    b = f.module.bindings.get(name)
    return b is not None and b[0] == "import" and (b[1] or "").split(".")[0] == "pydantic"


def own_validation(f: FieldInfo) -> bool:
    """The annotation brings its own validator, or skips validation (``SkipValidation[...]``)."""
    if f.annotation is None:
        return False
    found = False

    class V(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            nonlocal found
            if node.value in _OWN_VALIDATION:
                found = True

        def visit_Attribute(self, node: cst.Attribute) -> None:
            nonlocal found
            if node.attr.value in _OWN_VALIDATION:
                found = True

    f.annotation.visit(V())
    if found:
        return True
    # an alias of the module (``QuantKeyField = Annotated[..., GetPydanticSchema(...)]``)
    for m in _annotation_members(f.annotation):
        if isinstance(m, cst.Name):
            b = f.module.bindings.get(m.value)
            if b is not None and b[0] == "value" and isinstance(b[1], cst.Subscript):
                code = cst.Module([]).code_for_node(b[1])
                if any(w in code for w in _OWN_VALIDATION):
                    return True
    return False


# --------------------------------------------------------------------------- validators


def _decorator_call(fn: cst.FunctionDef) -> Optional[tuple[str, cst.Call]]:
    for d in fn.decorators:
        e = d.decorator
        if isinstance(e, cst.Call) and _short(e.func) in ("field_validator", "model_validator"):
            return _short(e.func), e
    return None


def _mode(call: cst.Call) -> str:
    for a in call.args:
        if a.keyword is not None and a.keyword.value == "mode" and isinstance(a.value, cst.SimpleString):
            return str(a.value.evaluated_value)
    return "after"


def _value_param(fn: cst.FunctionDef) -> Optional[tuple[str, Optional[str]]]:
    """(the value's parameter, the handler's parameter of a wrap validator)."""
    names = [p.name.value for p in [*fn.params.posonly_params, *fn.params.params]]
    if names and names[0] in ("cls", "self"):
        names = names[1:]
    if not names:
        return None
    return names[0], (names[1] if len(names) > 1 else None)


def validator_rewrites(cls: ClassInfo) -> Optional[dict[str, Union[bool, frozenset]]]:
    """Field -> the JSON kinds of value a before/wrap validator of the class (or a base) may
    change before the field's type sees it (``True``: any; ``"*"`` names every field); None
    when a model validator may change any field."""
    out: dict[str, Union[bool, frozenset]] = {}
    for c in cls.mro():
        for stmt in c.node.body.body:
            if not isinstance(stmt, cst.FunctionDef):
                continue
            found = _decorator_call(stmt)
            if found is None:
                continue
            kind, call = found
            mode = _mode(call)
            if mode not in ("before", "wrap", "plain"):
                continue
            params = _value_param(stmt)
            if kind == "model_validator":
                if mode == "plain" or params is None or not _pure_model_check(stmt, *params, mode == "wrap"):
                    return None
                continue
            fields = [str(a.value.evaluated_value) for a in call.args
                      if a.keyword is None and isinstance(a.value, cst.SimpleString)]
            if mode == "plain" or params is None:
                kinds: Union[bool, frozenset] = True
            else:
                try:
                    kinds = frozenset(_Walk(params[0], params[1] if mode == "wrap" else None).run(stmt))
                except _Unknown:
                    kinds = True
            for name in fields:
                prev = out.get(name, frozenset())
                out[name] = True if kinds is True or prev is True else prev | kinds
    return out


def field_rewrites(rewrites: Optional[dict], name: str) -> Union[bool, frozenset]:
    if rewrites is None:
        return True
    kinds: Union[bool, frozenset] = frozenset()
    for key in (name, "*"):
        k = rewrites.get(key)
        if k is None:
            continue
        kinds = True if k is True or kinds is True else kinds | k
    return kinds


def _names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)

    node.visit(V())
    return found


class _Walk:
    """An abstract run of a field validator's body over the JSON kinds of its value: which
    kinds may leave it changed. Raises _Unknown on anything it does not model."""

    def __init__(self, value: str, handler: Optional[str]):
        self.value = value
        self.handler = handler
        self.aliases = {value}
        self.rewritten: set[str] = set()
        self.loops = 0

    def run(self, fn: cst.FunctionDef) -> set[str]:
        live = self.block(fn.body.body, set(KINDS))
        # falling off the end returns None
        self.rewritten |= live - {"null"}
        return self.rewritten

    def block(self, stmts, live: set[str]) -> set[str]:
        for s in stmts:
            if not live:
                return live
            live = self.stmt(s, live)
        return live

    def body(self, node, live: set[str]) -> set[str]:
        if isinstance(node, cst.IndentedBlock):
            return self.block(node.body, live)
        if isinstance(node, cst.SimpleStatementSuite):
            return self.block([cst.SimpleStatementLine(body=node.body)], live)
        raise _Unknown

    def stmt(self, s, live: set[str]) -> set[str]:
        if isinstance(s, cst.SimpleStatementLine):
            for small in s.body:
                if not live:
                    return live
                live = self.small(small, live)
            return live
        if isinstance(s, cst.If):
            t, f = self.test(s.test)
            after = self.body(s.body, live & t)
            orelse = s.orelse
            if orelse is None:
                return after | (live & f)
            if isinstance(orelse, cst.If):
                return after | self.stmt(orelse, live & f)
            return after | self.body(orelse.body, live & f)
        if isinstance(s, (cst.For, cst.While)):
            if isinstance(s, cst.For):
                self.aliases |= _names(s.target) if _names(s.iter) & self.aliases else set()
            else:
                self.expr_ok(s.test)
            self.loops += 1
            after = self.body(s.body, set(live))
            self.loops -= 1
            if s.orelse is not None:
                after |= self.body(s.orelse.body, set(live))
            return live | after
        if isinstance(s, cst.Try):
            after = self.body(s.body, set(live))
            for h in s.handlers:
                after |= self.body(h.body, set(live))
            if s.orelse is not None or s.finalbody is not None:
                raise _Unknown
            return live | after
        raise _Unknown

    def small(self, s, live: set[str]) -> set[str]:
        if isinstance(s, cst.Return):
            if s.value is not None and self.unchanged(s.value):
                return set()
            self.rewritten |= live
            return set()
        if isinstance(s, cst.Raise):
            return set()
        if isinstance(s, (cst.Continue, cst.Break)) and self.loops:
            return set()  # this path goes back to the loop, whose end the loop's reader joins
        if isinstance(s, (cst.Pass, cst.Assert)):
            return live
        if isinstance(s, cst.Expr):
            v = s.value
            if isinstance(v, (cst.SimpleString, cst.ConcatenatedString)):
                return live
            if isinstance(v, cst.Call) and (_dotted(v.func) or "").startswith(_LOG_CALLS):
                return live
            self.expr_ok(v)
            return live
        if isinstance(s, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            targets = [t.target for t in s.targets] if isinstance(s, cst.Assign) else [s.target]
            if not all(isinstance(t, cst.Name) for t in targets):
                raise _Unknown  # `value["x"] = ...`, `self.x = ...`
            names = {t.value for t in targets}
            if self.value in names:
                # the value is replaced: what reaches this line leaves changed
                self.rewritten |= live
                return set()
            if s.value is not None and _names(s.value) & self.aliases:
                self.aliases |= names
            return live
        raise _Unknown

    def unchanged(self, e: cst.BaseExpression) -> bool:
        """The value goes on to the type as it came: a before validator returns it, a wrap
        validator hands it to the handler (returning it as it is skips the type)."""
        if self.handler is None:
            return isinstance(e, cst.Name) and e.value == self.value
        return (self.handler is not None and isinstance(e, cst.Call) and isinstance(e.func, cst.Name)
                and e.func.value == self.handler and len(e.args) == 1
                and isinstance(e.args[0].value, cst.Name) and e.args[0].value.value == self.value)

    def expr_ok(self, e: cst.BaseExpression) -> None:
        """An expression evaluated for its effect or its truth: it may read the value (``v.get``,
        ``len(v)``, ``k in v``) but not hand it, or a method of it, to anything."""
        aliases = self.aliases

        class V(cst.CSTVisitor):
            def visit_Call(self, n: cst.Call) -> None:
                f = n.func
                if isinstance(f, cst.Attribute) and isinstance(f.value, cst.Name) and f.value.value in aliases \
                        and f.attr.value not in ("get", "items", "keys", "values", "startswith", "endswith",
                                                 "lower", "upper", "strip", "isdigit", "count", "index"):
                    raise _Unknown
                for a in n.args:
                    if isinstance(a.value, cst.Name) and a.value.value in aliases \
                            and _short(f) not in ("isinstance", "len", "type", "str", "repr", "callable",
                                                  "hasattr", "sorted", "list", "set", "tuple", "any", "all"):
                        raise _Unknown

        e.visit(V())

    def test(self, e: cst.BaseExpression) -> tuple[set[str], set[str]]:
        """(kinds for which the test may be true, kinds for which it may be false)."""
        self.expr_ok(e)
        if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Not):
            t, f = self.test(e.expression)
            return f, t
        if isinstance(e, cst.BooleanOperation):
            lt, lf = self.test(e.left)
            rt, rf = self.test(e.right)
            if isinstance(e.operator, cst.And):
                return lt & rt, lf | rf
            return lt | rt, lf & rf
        if isinstance(e, cst.Call) and _short(e.func) == "isinstance" and len(e.args) == 2 \
                and isinstance(e.args[0].value, cst.Name) and e.args[0].value.value == self.value:
            kinds = self.isinstance_kinds(e.args[1].value)
            if kinds is not None:
                return kinds, set(KINDS) - kinds
        if isinstance(e, cst.Comparison) and isinstance(e.left, cst.Name) and e.left.value == self.value \
                and len(e.comparisons) == 1 and isinstance(e.comparisons[0].comparator, cst.Name) \
                and e.comparisons[0].comparator.value == "None":
            op = e.comparisons[0].operator
            if isinstance(op, (cst.Is, cst.Equal)):
                return {"null"}, set(KINDS) - {"null"}
            if isinstance(op, (cst.IsNot, cst.NotEqual)):
                return set(KINDS) - {"null"}, {"null"}
        return set(KINDS), set(KINDS)

    @staticmethod
    def isinstance_kinds(t: cst.BaseExpression) -> Optional[set[str]]:
        if isinstance(t, cst.Tuple):
            out: set[str] = set()
            for el in t.elements:
                k = _Walk.isinstance_kinds(el.value)
                if k is None:
                    return None
                out |= k
            return out
        name = _dotted(t)
        if name is None:
            return None
        short = name.rsplit(".", 1)[-1]
        if short in _ISINSTANCE:
            return set(_ISINSTANCE[short])
        if short[:1].isupper() and short not in ("Any", "Type"):
            return set()  # a class of vLLM's or a library's: no JSON value is one
        return None


def _pure_model_check(fn: cst.FunctionDef, data: str, handler: Optional[str], wrap: bool) -> bool:
    """A before/wrap model validator that only reads the input and returns it as it came
    (``return data`` / ``return handler(data)``), or refuses it."""
    w = _Walk(data, handler if wrap else None)
    try:
        w.run(fn)
    except _Unknown:
        return False
    return not w.rewritten


# --------------------------------------------------------------------------- the facts


def _config_class(t: TypeHint) -> bool:
    """The annotation is one config class (or it or None): pydantic takes an object for it."""
    members = [m for m in type_members(t) if not (m.kind == "builtin" and m.name == "NoneType")]
    if len(members) != 1 or members[0].kind != "class" or members[0].cls is None:
        return False
    c = members[0].cls
    return not c.is_enum and (c.is_dataclass or "BaseModel" in c.base_names()) \
        and not c.is_typeddict and not c.is_dict_subclass


#: what a field validator may call on the value to refuse a string that is no PEP 440 version
VERSION_PARSERS = ("packaging.version.parse", "packaging.version.Version")


def version_fields(cls: ClassInfo) -> set[str]:
    """The fields an ``after`` field validator of the class (or a base) refuses unless they are
    None or a PEP 440 version: its body is ``if value is not None: parse(value)`` and ``return
    value``, ``parse`` being ``packaging.version``'s (``ObservabilityConfig``'s
    ``show_hidden_metrics_for_version``, 0.12.0+)."""
    out: set[str] = set()
    for c, stmt, found, params in field_validators(cls, "after"):
        if _parses_a_version(c, stmt, params[0]):
            out.update(validated_fields(found[1]))
    return out


def _parses_a_version(c: ClassInfo, fn: cst.FunctionDef, value: str) -> bool:
    body = [s for s in fn.body.body if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
                                            and isinstance(s.body[0], cst.Expr)
                                            and isinstance(s.body[0].value, cst.SimpleString))]
    if len(body) != 2 or not isinstance(body[0], cst.If) or body[0].orelse is not None:
        return False
    test = body[0].test
    if not (isinstance(test, cst.Comparison) and isinstance(test.left, cst.Name) and test.left.value == value
            and len(test.comparisons) == 1 and isinstance(test.comparisons[0].operator, cst.IsNot)
            and isinstance(test.comparisons[0].comparator, cst.Name)
            and test.comparisons[0].comparator.value == "None"):
        return False
    inner = body[0].body.body
    if len(inner) != 1 or not isinstance(inner[0], cst.SimpleStatementLine) or len(inner[0].body) != 1 \
            or not isinstance(inner[0].body[0], cst.Expr) or not isinstance(inner[0].body[0].value, cst.Call):
        return False
    call = inner[0].body[0].value
    if len(call.args) != 1 or not isinstance(call.args[0].value, cst.Name) or call.args[0].value.value != value:
        return False
    ret = body[1]
    if not (isinstance(ret, cst.SimpleStatementLine) and len(ret.body) == 1 and isinstance(ret.body[0], cst.Return)
            and isinstance(ret.body[0].value, cst.Name) and ret.body[0].value.value == value):
        return False
    func = call.func
    if isinstance(func, cst.Name):
        r = c.project.lookup(c.module.name, func.value)
        target = getattr(r, "name", None)
    elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
        r = c.project.lookup(c.module.name, func.value.value)
        base = getattr(r, "name", None)
        target = f"{base}.{func.attr.value}" if base else None
    else:
        return False
    return target in VERSION_PARSERS


def takes_no_string(t: TypeHint) -> bool:
    """Pydantic refuses every string for the annotation: each member (None aside) is ``dict``
    (bare or generic) or a class a string is no instance of (not an enum, not built on ``str``,
    and, for a ``Protocol``, one with a method ``str`` lacks: ``SupportsHash``' ``compute_hash``).
    ``VllmConfig.additional_config`` (``dict | SupportsHash``) is such a field."""
    members = [m for m in type_members(t) if not (m.kind == "builtin" and m.name == "NoneType")]
    if not members:
        return False
    for m in members:
        if m.kind == "builtin" and m.name == "dict" or m.kind == "generic" and m.name == "dict":
            continue
        if m.kind != "class" or m.cls is None or m.cls.is_enum:
            return False
        bases = m.cls.base_names()
        if "str" in bases:
            return False
        if "Protocol" in bases:
            methods = {stmt.name.value for stmt in m.cls.node.body.body if isinstance(stmt, cst.FunctionDef)}
            if not methods or methods <= set(dir(str)):
                return False
    return True


def pydantic_facts(f: FieldInfo, t: TypeHint, rewrites: Optional[dict]) -> dict:
    """The keys a field's record gets beside its type: ``prevalidated`` (True, or the JSON kinds
    of value a validator may change first), ``constraints`` (literal bounds), ``object``
    (a nested config class: only a JSON object, or null where the type allows it)."""
    out: dict = {}
    kinds = True if own_validation(f) else field_rewrites(rewrites, f.name)
    if kinds is True or kinds == KINDS:
        out["prevalidated"] = True
    elif kinds:
        out["prevalidated"] = sorted(kinds)
    bounds = field_constraints(f)
    if bounds:
        out["constraints"] = bounds
    if _config_class(t):
        out["object"] = True
    return out


# --------------------------------------------------------------------------- enum lookups


def enum_lookups(cls: ClassInfo) -> dict[str, dict]:
    """Field -> ``{"names": [...], "case": "upper", "also": [...]}`` for the fields a before
    validator reads as an enum member's name: ``if isinstance(value, str): return Enum[value.upper()]``
    (optionally after ``if value.lower() == "auto": return None``), else ``return value``. A string
    whose upper-case is no member name raises there (a ``KeyError``, or the enum's own error),
    so the parser refuses the option (``-cc.cudagraph_mode foo``). ``also``: the lower-case words
    passed before the lookup; ``extensible`` where the enum's source adds members at run time."""
    out: dict[str, dict] = {}
    for c, stmt, found, params in field_validators(cls, "before"):
        lookup = _lookup_shape(stmt, params[0])
        if lookup is None:
            continue
        enum_name, also = lookup
        r = c.project.lookup(c.module.name, enum_name)
        if not (isinstance(r, tuple) and r[1][0] == "class"):
            continue
        enum = c.project.class_info(r[0], r[1][1])
        if not enum.is_enum:
            continue
        names = [m.name for m in enum.enum_members()]
        if not names:
            continue
        rec: dict = {"names": names, "case": "upper"}
        if also:
            rec["also"] = also
        if "_member_map_" in enum.module.node.code_for_node(enum.node):
            rec["extensible"] = True
        for field in validated_fields(found[1]):
            out.setdefault(field, rec)
    return out


def _string_branch(fn: cst.FunctionDef, value: str) -> Optional[list]:
    """The statements of ``if isinstance(value, str): ...`` when ``fn``'s body is that branch then
    ``return value``, else None."""
    body = [s for s in fn.body.body if not _is_docstring(s)]
    if len(body) != 2 or not isinstance(body[0], cst.If) or body[0].orelse is not None \
            or not _returns_name(body[1], value):
        return None
    test = body[0].test
    if not (isinstance(test, cst.Call) and _short(test.func) == "isinstance" and len(test.args) == 2
            and isinstance(test.args[0].value, cst.Name) and test.args[0].value.value == value
            and _short(test.args[1].value) == "str"):
        return None
    return list(body[0].body.body)


def _lookup_shape(fn: cst.FunctionDef, value: str) -> Optional[tuple[str, list[str]]]:
    """(the enum's name, words passed first) when the body is the lookup shape, else None."""
    inner = _string_branch(fn, value)
    if inner is None:
        return None
    also: list[str] = []
    while len(inner) > 1:
        s = inner.pop(0)
        word = _passed_word(s, value)
        if word is None:
            return None
        also.append(word)
    if len(inner) != 1 or not isinstance(inner[0], cst.SimpleStatementLine) or len(inner[0].body) != 1:
        return None
    ret = inner[0].body[0]
    if not isinstance(ret, cst.Return) or not isinstance(ret.value, cst.Subscript):
        return None
    sub = ret.value
    if not isinstance(sub.value, cst.Name) or len(sub.slice) != 1 \
            or not isinstance(sub.slice[0].slice, cst.Index):
        return None
    key = sub.slice[0].slice.value
    if not (isinstance(key, cst.Call) and not key.args and isinstance(key.func, cst.Attribute)
            and key.func.attr.value == "upper" and isinstance(key.func.value, cst.Name)
            and key.func.value.value == value):
        return None
    return sub.value.value, also


def _is_docstring(s: cst.CSTNode) -> bool:
    return isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Expr) \
        and isinstance(s.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _returns_name(s: cst.CSTNode, name: str) -> bool:
    return isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Return) \
        and isinstance(s.body[0].value, cst.Name) and s.body[0].value.value == name


def _passed_word(s: cst.CSTNode, value: str) -> Optional[str]:
    """``if value.lower() == "auto": return <anything>``: the word "auto"."""
    if not isinstance(s, cst.If) or s.orelse is not None or not isinstance(s.test, cst.Comparison) \
            or len(s.test.comparisons) != 1 or not isinstance(s.test.comparisons[0].operator, cst.Equal):
        return None
    left, right = s.test.left, s.test.comparisons[0].comparator
    if not (isinstance(left, cst.Call) and not left.args and isinstance(left.func, cst.Attribute)
            and left.func.attr.value == "lower" and isinstance(left.func.value, cst.Name)
            and left.func.value.value == value and isinstance(right, cst.SimpleString)):
        return None
    body = s.body.body
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or not isinstance(body[0].body[0], cst.Return):
        return None
    word = right.evaluated_value
    return word if isinstance(word, str) and word == word.lower() else None


# --------------------------------------------------------------------------- string rewrites


def method_chain(e: cst.BaseExpression, name: str) -> Optional[list]:
    """``[[method, *literal args], ...]`` in order when ``e`` is ``name`` followed by a chain of the
    string methods an option's ``transform`` may hold (``surface.db.WORD_METHODS``, with their
    argument counts: ``name.lower().replace("-", "_")``), else None. Shared by an argparse
    ``type=`` lambda's body and a before validator's rewrite."""
    steps: list = []
    while isinstance(e, cst.Call) and isinstance(e.func, cst.Attribute):
        meth = e.func.attr.value
        args = [a.value.evaluated_value for a in e.args
                if a.keyword is None and not a.star and isinstance(a.value, cst.SimpleString)]
        if WORD_METHODS.get(meth) != len(args) or len(args) != len(e.args):
            return None
        steps.append([meth, *args])
        e = e.func.value
    if not steps or not (isinstance(e, cst.Name) and e.value == name):
        return None
    return steps[::-1]


def string_transforms(cls: ClassInfo) -> dict[str, list]:
    """Field -> the string methods a before validator of the class (or a base) applies to a string
    before the field's type sees it, as ``[[method, *literal args], ...]`` in order: the body is
    ``if isinstance(value, str): return value.lower().replace("-", "_")`` then ``return value``
    (``KernelConfig.moe_backend``, 0.20+). Pydantic then checks the rewritten word, so a field
    whose type is a string ``Literal`` refuses every word whose rewrite is not one of them."""
    out: dict[str, list] = {}
    for c, stmt, found, params in field_validators(cls, "before"):
        steps = _rewrite_shape(stmt, params[0])
        if steps is None:
            continue
        for field in validated_fields(found[1]):
            out.setdefault(field, steps)
    return out


def _rewrite_shape(fn: cst.FunctionDef, value: str) -> Optional[list]:
    inner = _string_branch(fn, value)
    if inner is None or len(inner) != 1 or not isinstance(inner[0], cst.SimpleStatementLine) or len(inner[0].body) != 1 \
            or not isinstance(inner[0].body[0], cst.Return) or inner[0].body[0].value is None:
        return None
    return method_chain(inner[0].body[0].value, value)


# --------------------------------------------------------------------------- required fields


def required_field(f: FieldInfo) -> bool:
    """The field has no default (no value, or ``Field(...)`` / ``field(...)`` without ``default``
    or a factory): building the class without the key fails (pydantic's "Field required", a
    dataclass's missing argument)."""
    v = f.value
    if v is None:
        return True
    if isinstance(v, cst.Call) and _short(v.func) in ("Field", "field"):
        kws = {a.keyword.value for a in v.args if a.keyword is not None}
        positional = [a for a in v.args if a.keyword is None]
        if _short(v.func) == "Field" and positional:
            # Field(...) (Ellipsis) is required, Field(x) is a default
            return isinstance(positional[0].value, cst.Ellipsis)
        return not kws & {"default", "default_factory"}
    return False


def model_sees_input(cls: ClassInfo) -> bool:
    """A ``model_validator(mode="before" | "wrap" | "plain")`` of the class (or a base) sees the
    input before its fields are matched (and may drop or rename keys); a field validator, ``"*"``
    included, only sees the values of the fields the class declares."""
    for c in cls.mro():
        for stmt in c.node.body.body:
            if isinstance(stmt, cst.FunctionDef):
                found = _decorator_call(stmt)
                if found is not None and found[0] == "model_validator" and _mode(found[1]) != "after":
                    return True
    return False


# --------------------------------------------------------------------------- objects keyed by an enum


def dict_lookups(cls: ClassInfo) -> dict[str, dict]:
    """Field -> ``{"key_values": [...], "value_names"?: {"names": [...], "case": "upper"}}`` for a
    field whose before validator reads an object: ``if not isinstance(value, dict): return value``,
    a set of an enum's values (``valid = {k.value for k in Kind}``, the enum imported at module or
    function level), then ``for key, item in value.items():`` with ``if key not in valid: raise``
    and, optionally, ``if isinstance(item, str): item = Enum[item.upper()]`` (0.33+'s
    ``AttentionConfig.backend_per_kind``). A key outside the values, or a string item whose
    upper-case is no member name, is refused while the class is built."""
    out: dict[str, dict] = {}
    for c, stmt, found, params in field_validators(cls, "before"):
        rec = _dict_lookup_shape(c, stmt, params[0])
        if rec is None:
            continue
        for field in validated_fields(found[1]):
            out.setdefault(field, rec)
    return out


def field_validators(cls: ClassInfo, mode: str):
    """``(class, validator, its decorator call, its value parameters)`` of every ``field_validator``
    of ``cls`` and its bases whose mode is ``mode`` ("before", "after"), in method resolution order."""
    for c in cls.mro():
        for stmt in c.node.body.body:
            if not isinstance(stmt, cst.FunctionDef):
                continue
            found = _decorator_call(stmt)
            if found is None or found[0] != "field_validator" or _mode(found[1]) != mode:
                continue
            params = _value_param(stmt)
            if params is not None:
                yield c, stmt, found, params


def validated_fields(call: cst.Call) -> list[str]:
    """The field names a ``field_validator("a", "b", mode=...)`` call names."""
    return [str(a.value.evaluated_value) for a in call.args
            if a.keyword is None and isinstance(a.value, cst.SimpleString)]


def _enum_class(c: ClassInfo, name: str, local: dict[str, str]) -> Optional[ClassInfo]:
    r = c.project.lookup(local[name], name) if name in local else c.project.lookup(c.module.name, name)
    if not (isinstance(r, tuple) and r[1][0] == "class"):
        return None
    enum = c.project.class_info(r[0], r[1][1])
    return enum if enum.is_enum else None


def _dict_lookup_shape(c: ClassInfo, fn: cst.FunctionDef, value: str) -> Optional[dict]:
    body = [s for s in fn.body.body if not _is_docstring(s)]
    local: dict[str, str] = {}
    sets: dict[str, ClassInfo] = {}
    guarded = False
    loop: Optional[cst.For] = None
    for s in body:
        if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1:
            small = s.body[0]
            if isinstance(small, cst.ImportFrom) and small.relative == () and small.module is not None \
                    and not isinstance(small.names, cst.ImportStar):
                for alias in small.names:
                    if alias.asname is None and isinstance(alias.name, cst.Name):
                        local[alias.name.value] = _dotted(small.module) or ""
                continue
            if isinstance(small, cst.Assign) and len(small.targets) == 1 \
                    and isinstance(small.targets[0].target, cst.Name) and isinstance(small.value, cst.SetComp):
                comp = small.value
                f = comp.for_in
                if isinstance(comp.elt, cst.Attribute) and comp.elt.attr.value == "value" \
                        and isinstance(comp.elt.value, cst.Name) and isinstance(f.target, cst.Name) \
                        and comp.elt.value.value == f.target.value and isinstance(f.iter, cst.Name) \
                        and f.inner_for_in is None and not f.ifs:
                    enum = _enum_class(c, f.iter.value, local)
                    if enum is None:
                        return None
                    sets[small.targets[0].target.value] = enum
                continue
        if isinstance(s, cst.If) and not guarded and s.orelse is None:
            t = s.test
            if isinstance(t, cst.UnaryOperation) and isinstance(t.operator, cst.Not) \
                    and isinstance(t.expression, cst.Call) and _short(t.expression.func) == "isinstance" \
                    and len(t.expression.args) == 2 and isinstance(t.expression.args[0].value, cst.Name) \
                    and t.expression.args[0].value.value == value \
                    and _short(t.expression.args[1].value) == "dict" \
                    and len(s.body.body) == 1 and _returns_name(s.body.body[0], value):
                guarded = True
                continue
        if isinstance(s, cst.For) and guarded and loop is None:
            loop = s
    if loop is None:
        return None
    it = loop.iter
    if not (isinstance(it, cst.Call) and not it.args and isinstance(it.func, cst.Attribute)
            and it.func.attr.value == "items" and isinstance(it.func.value, cst.Name)
            and it.func.value.value == value and isinstance(loop.target, cst.Tuple)
            and len(loop.target.elements) == 2
            and all(isinstance(e.value, cst.Name) for e in loop.target.elements)):
        return None
    key, item = (e.value.value for e in loop.target.elements)
    rec: dict = {}
    for s in loop.body.body:
        if not isinstance(s, cst.If) or s.orelse is not None:
            continue
        t = s.test
        if isinstance(t, cst.Comparison) and isinstance(t.left, cst.Name) and t.left.value == key \
                and len(t.comparisons) == 1 and isinstance(t.comparisons[0].operator, cst.NotIn) \
                and isinstance(t.comparisons[0].comparator, cst.Name) and t.comparisons[0].comparator.value in sets \
                and any(isinstance(x, cst.SimpleStatementLine) and isinstance(x.body[0], cst.Raise)
                        for x in s.body.body):
            values = [m.value for m in sets[t.comparisons[0].comparator.value].enum_members()]
            if values and all(isinstance(v, str) for v in values):
                rec["key_values"] = sorted(values)
        elif isinstance(t, cst.Call) and _short(t.func) == "isinstance" and len(t.args) == 2 \
                and isinstance(t.args[0].value, cst.Name) and t.args[0].value.value == item \
                and _short(t.args[1].value) == "str" and len(s.body.body) == 1 \
                and isinstance(s.body.body[0], cst.SimpleStatementLine):
            a = s.body.body[0].body[0]
            if isinstance(a, cst.Assign) and len(a.targets) == 1 and isinstance(a.targets[0].target, cst.Name) \
                    and a.targets[0].target.value == item and isinstance(a.value, cst.Subscript) \
                    and isinstance(a.value.value, cst.Name) and len(a.value.slice) == 1 \
                    and isinstance(a.value.slice[0].slice, cst.Index):
                k = a.value.slice[0].slice.value
                if isinstance(k, cst.Call) and not k.args and isinstance(k.func, cst.Attribute) \
                        and k.func.attr.value == "upper" and isinstance(k.func.value, cst.Name) \
                        and k.func.value.value == item:
                    enum = _enum_class(c, a.value.value.value, local)
                    names = [m.name for m in enum.enum_members()] if enum is not None else []
                    if names:
                        rec["value_names"] = {"names": names, "case": "upper"}
    return rec if "key_values" in rec else None
