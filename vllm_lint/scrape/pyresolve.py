"""Static name resolution and constant evaluation over one release's source (libcst only).

Nothing here imports or runs vLLM code. ``Project`` parses modules lazily through a
``SourceTree`` and caches them; ``Evaluator`` turns libcst expressions into Python values where
that is statically possible and into ``UNKNOWN`` otherwise; ``ClassInfo`` models a (data)class:
its bases, its fields in ``dataclasses.fields`` order, attribute docstrings and enum members.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field as dc_field
from typing import Any, Iterator, Optional

import libcst as cst

from . import eras
from .tree import SourceTree


class _Unknown:
    _inst = None

    def __new__(cls):
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __bool__(self) -> bool:  # pragma: no cover - guard against accidental truthiness
        raise TypeError("UNKNOWN has no truth value")


UNKNOWN: Any = _Unknown()


class ExtractionError(Exception):
    """A release whose source cannot be read the way this extractor expects."""


# --------------------------------------------------------------------------- references


@dataclass(frozen=True)
class ModRef:
    name: str


@dataclass(frozen=True)
class Ref:
    """A callable or other object we know only by (qualified) name: ``int``, ``json.loads``,
    ``argparse.BooleanOptionalAction``, ``vllm.utils.nullable_str``..."""

    name: str
    args: tuple = ()

    @property
    def short(self) -> str:
        return self.name.rsplit(".", 1)[-1]


@dataclass(frozen=True)
class CallOf:
    """The result of calling something we do not evaluate: ``optional_type(int)``."""

    name: str
    args: tuple = ()

    @property
    def short(self) -> str:
        return self.name.rsplit(".", 1)[-1]

    def __hash__(self) -> int:
        return hash(self.name)


@dataclass(frozen=True)
class FuncRef:
    module: "Module"
    node: cst.FunctionDef
    owner: Optional["ClassInfo"] = None

    @property
    def name(self) -> str:
        return self.node.name.value

    def __hash__(self) -> int:
        return id(self.node)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FuncRef) and other.node is self.node


@dataclass(frozen=True)
class BoundMethod:
    func: FuncRef
    self_value: Any  # ClassInfo for classmethods / super(), an Instance otherwise


@dataclass(frozen=True)
class EnumMember:
    cls: "ClassInfo"
    name: str
    value: Any


@dataclass
class Instance:
    cls: Optional["ClassInfo"]
    attrs: dict = dc_field(default_factory=dict)


@dataclass
class Lambda:
    module: "Module"
    node: cst.Lambda


# --------------------------------------------------------------------------- modules


@dataclass
class Module:
    name: str
    path: str
    node: cst.Module
    is_package: bool
    bindings: dict = dc_field(default_factory=dict)  # name -> binding
    star_imports: list = dc_field(default_factory=list)

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return other is self


# binding kinds: ("value", expr), ("ann", annotation, value|None), ("class", ClassDef),
# ("func", FunctionDef), ("import", module, attr|None)


_EXTRA_FORBID = re.compile(r"""extra\s*=\s*(?:["']forbid["']|Extra\.forbid)""")
_PRE_VALIDATOR = re.compile(r"@(?:\w+\.)?(field_validator|model_validator)\(([^)]*)\)")
_PRE_MODE = re.compile(r"mode\s*=\s*[\"'](?:before|wrap|plain)[\"']")
_QUOTED = re.compile(r"[\"']([^\"']+)[\"']")


def _dotted(node: cst.BaseExpression) -> Optional[str]:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = _dotted(node.value)
        return None if base is None else base + "." + node.attr.value
    return None


def _is_type_checking(test: cst.BaseExpression) -> bool:
    d = _dotted(test)
    return d in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


class Project:
    """All modules of one release, parsed on demand and cached."""

    def __init__(self, tree: SourceTree):
        self.tree = tree
        self._modules: dict[str, Optional[Module]] = {}
        self._classes: dict[int, ClassInfo] = {}
        self._source: dict[str, Optional[str]] = {}

    # -- files
    def text(self, path: str) -> Optional[str]:
        if path not in self._source:
            data = self.tree.read(path)
            self._source[path] = None if data is None else data.decode("utf-8", "replace")
        return self._source[path]

    def exists(self, path: str) -> bool:
        return self.text(path) is not None

    def module_path(self, modname: str) -> Optional[tuple[str, bool]]:
        base = modname.replace(".", "/")
        if self.exists(base + ".py"):
            return base + ".py", False
        if self.exists(base + "/__init__.py"):
            return base + "/__init__.py", True
        return None

    def module(self, modname: str) -> Optional[Module]:
        if modname in self._modules:
            return self._modules[modname]
        self._modules[modname] = None  # guards cycles
        found = self.module_path(modname)
        if found is None:
            return None
        path, is_pkg = found
        try:
            node = cst.parse_module(self.text(path) or "")
        except cst.ParserSyntaxError as exc:
            raise ExtractionError(f"cannot parse {path}: {exc}") from exc
        mod = Module(modname, path, node, is_pkg)
        self._collect(mod, node.body, in_type_checking=False)
        self._modules[modname] = mod
        return mod

    def _package_of(self, mod: Module) -> str:
        return mod.name if mod.is_package else mod.name.rpartition(".")[0]

    def _abs_import(self, mod: Module, relative: int, target: Optional[str]) -> str:
        if not relative:
            return target or ""
        pkg = self._package_of(mod)
        for _ in range(relative - 1):
            pkg = pkg.rpartition(".")[0]
        return f"{pkg}.{target}" if target else pkg

    def _collect(self, mod: Module, body, in_type_checking: bool) -> None:
        for stmt in body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    self._collect_small(mod, small, in_type_checking)
            elif isinstance(stmt, cst.ClassDef):
                mod.bindings[stmt.name.value] = ("class", stmt)
            elif isinstance(stmt, cst.FunctionDef):
                mod.bindings[stmt.name.value] = ("func", stmt)
            elif isinstance(stmt, cst.If):
                tc = _is_type_checking(stmt.test)
                self._collect(mod, stmt.body.body, in_type_checking or tc)
                orelse = stmt.orelse
                while orelse is not None:
                    if isinstance(orelse, cst.If):
                        self._collect(mod, orelse.body.body, in_type_checking)
                        orelse = orelse.orelse
                    else:
                        self._collect(mod, orelse.body.body, in_type_checking)
                        orelse = None
            elif isinstance(stmt, cst.Try):
                self._collect(mod, stmt.body.body, in_type_checking)
            elif isinstance(stmt, (cst.With,)):
                self._collect(mod, stmt.body.body, in_type_checking)

    def _bind(self, mod: Module, name: str, binding, in_type_checking: bool) -> None:
        if in_type_checking and name in mod.bindings:
            return
        mod.bindings[name] = binding

    def _collect_small(self, mod: Module, small, tc: bool) -> None:
        if isinstance(small, cst.ImportFrom):
            rel = len(small.relative)
            target = _dotted(small.module) if small.module is not None else None
            src = self._abs_import(mod, rel, target)
            if isinstance(small.names, cst.ImportStar):
                mod.star_imports.append(src)
                return
            for alias in small.names:
                name = _dotted(alias.name)
                asname = alias.asname.name.value if alias.asname else name
                self._bind(mod, asname, ("import", src, name), tc)
        elif isinstance(small, cst.Import):
            for alias in small.names:
                full = _dotted(alias.name)
                if alias.asname:
                    self._bind(mod, alias.asname.name.value, ("import", full, None), tc)
                else:
                    top = full.split(".")[0]
                    self._bind(mod, top, ("import", top, None), tc)
        elif isinstance(small, cst.Assign):
            for t in small.targets:
                if isinstance(t.target, cst.Name):
                    self._bind(mod, t.target.value, ("value", small.value), tc)
        elif isinstance(small, cst.AnnAssign):
            if isinstance(small.target, cst.Name):
                self._bind(mod, small.target.value, ("ann", small.annotation.annotation, small.value), tc)

    # -- lookups
    def lookup(self, modname: str, name: str, _seen=None) -> Any:
        """Resolve ``name`` in module ``modname`` to (module, binding) or a ModRef / Ref."""
        seen = _seen or set()
        key = (modname, name)
        if key in seen:
            return None
        seen.add(key)
        mod = self.module(modname)
        if mod is None:
            return Ref(f"{modname}.{name}")
        b = mod.bindings.get(name)
        if b is None:
            for star in mod.star_imports:
                r = self.lookup(star, name, seen)
                if r is not None and not isinstance(r, Ref):
                    return r
            if mod.is_package and self.module_path(f"{modname}.{name}"):
                return ModRef(f"{modname}.{name}")
            return None
        if b[0] == "import":
            src, attr = b[1], b[2]
            if attr is None:
                return ModRef(src)
            if self.module_path(src) is None:
                return Ref(f"{src}.{attr}")
            r = self.lookup(src, attr, seen)
            if r is None and self.module_path(f"{src}.{attr}"):
                return ModRef(f"{src}.{attr}")
            return r if r is not None else Ref(f"{src}.{attr}")
        return (mod, b)

    def class_info(self, mod: Module, node: cst.ClassDef) -> "ClassInfo":
        ci = self._classes.get(id(node))
        if ci is None:
            ci = ClassInfo(self, mod, node)
            self._classes[id(node)] = ci
        return ci

    def find_class(self, modname: str, name: str) -> Optional["ClassInfo"]:
        r = self.lookup(modname, name)
        if isinstance(r, tuple) and r[1][0] == "class":
            return self.class_info(r[0], r[1][1])
        return None


# --------------------------------------------------------------------------- classes


@dataclass
class FieldInfo:
    name: str
    annotation: Optional[cst.BaseExpression]
    value: Optional[cst.BaseExpression]
    doc: Optional[str]
    owner: "ClassInfo"

    @property
    def module(self) -> Module:
        return self.owner.module


class ClassInfo:
    def __init__(self, project: Project, module: Module, node: cst.ClassDef):
        self.project = project
        self.module = module
        self.node = node
        self.name = node.name.value
        self._bases: Optional[list] = None
        self._own: Optional[list[FieldInfo]] = None

    def __repr__(self) -> str:
        return f"ClassInfo({self.module.name}.{self.name})"

    def __hash__(self) -> int:
        return id(self.node)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ClassInfo) and other.node is self.node

    @property
    def doc(self) -> Optional[str]:
        body = self.node.body.body
        if body and isinstance(body[0], cst.SimpleStatementLine):
            e = body[0].body[0]
            if isinstance(e, cst.Expr) and isinstance(e.value, (cst.SimpleString, cst.ConcatenatedString)):
                v = e.value.evaluated_value
                return v if isinstance(v, str) else None
        return None

    def bases(self) -> list:
        """Resolved bases: ClassInfo or Ref."""
        if self._bases is None:
            self._bases = []
            ev = Evaluator(self.project)
            for arg in self.node.bases:
                if arg.keyword is not None:
                    continue
                expr = arg.value
                if isinstance(expr, cst.Subscript):  # Generic[T]
                    expr = expr.value
                v = ev.eval(expr, self.module, {})
                self._bases.append(v)
        return self._bases

    def mro(self) -> list["ClassInfo"]:
        out: list[ClassInfo] = [self]
        for b in self.bases():
            if isinstance(b, ClassInfo):
                for c in b.mro():
                    if c not in out:
                        out.append(c)
        return out

    def methods(self) -> dict[str, cst.FunctionDef]:
        """Name -> the definition Python would call: the first in method resolution order
        (methods that take parameters; a bare ``def f():`` in a class body is no method)."""
        out: dict[str, cst.FunctionDef] = {}
        for c in self.mro():
            for stmt in c.node.body.body:
                if isinstance(stmt, cst.FunctionDef) and stmt.params.params:
                    out.setdefault(stmt.name.value, stmt)
        return out

    def base_names(self) -> set[str]:
        names = set()
        for c in self.mro():
            for b in c.bases():
                if isinstance(b, Ref):
                    names.add(b.short)
                elif isinstance(b, ClassInfo):
                    names.add(b.name)
        return names

    def decorator_names(self) -> set[str]:
        names = set()
        for d in self.node.decorators:
            e = d.decorator
            if isinstance(e, cst.Call):
                e = e.func
            n = _dotted(e)
            if n:
                names.add(n.rsplit(".", 1)[-1])
        return names

    def forbids_extra(self) -> bool:
        """Whether the class (or a base) is a pydantic dataclass or model configured with
        ``extra="forbid"``: in its decorators, its class body, or the ``config`` decorator that
        vLLM 0.14+ defines to apply it (vllm/config/utils.py)."""
        for c in self.mro():
            code = cst.Module([]).code_for_node(c.node)
            if _EXTRA_FORBID.search(code):
                return True
            if "config" in c.decorator_names():
                text = c.project.text(eras.CONFIG_UTILS) or ""
                if any(_EXTRA_FORBID.search(m.group(0)) for m in eras.CONFIG_DECORATOR.finditer(text)):
                    return True
        return False

    def prevalidated_fields(self) -> Optional[set[str]]:
        """Fields whose input a pydantic validator of the class (or a base) sees before the field's
        type does (``field_validator(..., mode="before" | "wrap" | "plain")``); None when one may
        see every field (``"*"`` or ``model_validator(mode="before" | "wrap")``)."""
        names: set[str] = set()
        for c in self.mro():
            code = cst.Module([]).code_for_node(c.node)
            for m in _PRE_VALIDATOR.finditer(code):
                kind, args = m.group(1), m.group(2)
                if not _PRE_MODE.search(args):
                    continue
                if kind == "model_validator":
                    return None
                fields = set(_QUOTED.findall(args.split("mode=")[0]))
                if "*" in fields:
                    return None
                names |= fields
        return names

    @property
    def is_enum(self) -> bool:
        return bool(self.base_names() & {"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})

    @property
    def is_typeddict(self) -> bool:
        return "TypedDict" in self.base_names()

    @property
    def is_dict_subclass(self) -> bool:
        return not self.is_typeddict and bool(self.base_names() & {"dict", "Dict", "UserDict", "OrderedDict"})

    @property
    def is_dataclass(self) -> bool:
        for c in self.mro():
            if c.decorator_names() & {"dataclass", "config", "pydantic_dataclass"}:
                return True
        return False

    def own_fields(self) -> list[FieldInfo]:
        if self._own is None:
            out: list[FieldInfo] = []
            body = list(self.node.body.body)
            for i, stmt in enumerate(body):
                if not isinstance(stmt, cst.SimpleStatementLine):
                    continue
                small = stmt.body[0]
                if not isinstance(small, cst.AnnAssign) or not isinstance(small.target, cst.Name):
                    continue
                ann = small.annotation.annotation
                d = _dotted(ann.value if isinstance(ann, cst.Subscript) else ann) or ""
                if d.rsplit(".", 1)[-1] == "ClassVar":
                    continue
                if isinstance(ann, (cst.SimpleString,)) and "ClassVar" in ann.value:
                    continue
                doc = None
                if i + 1 < len(body) and isinstance(body[i + 1], cst.SimpleStatementLine):
                    nxt = body[i + 1].body[0]
                    if isinstance(nxt, cst.Expr) and isinstance(nxt.value, (cst.SimpleString, cst.ConcatenatedString)):
                        try:
                            v = nxt.value.evaluated_value
                        except Exception:  # noqa: BLE001 - odd string prefixes
                            v = None
                        doc = v if isinstance(v, str) else None
                out.append(FieldInfo(small.target.value, ann, small.value, doc, self))
            self._own = out
        return self._own

    def fields(self) -> list[FieldInfo]:
        """Dataclass fields in ``dataclasses.fields`` order (bases first, overrides in place)."""
        order: dict[str, FieldInfo] = {}
        for c in reversed(self.mro()):
            if not c.is_dataclass and c is not self:
                continue
            for f in c.own_fields():
                if f.name in order:
                    # the subclass redefinition keeps the base's position
                    order[f.name] = f
                else:
                    order[f.name] = f
        return list(order.values())

    def field(self, name: str) -> Optional[FieldInfo]:
        for f in self.fields():
            if f.name == name:
                return f
        return None

    def class_attr(self, name: str) -> Optional[tuple[Module, cst.BaseExpression]]:
        """The expression assigned to ``name`` in the class body (MRO order)."""
        for c in self.mro():
            for stmt in c.node.body.body:
                if isinstance(stmt, cst.SimpleStatementLine):
                    for small in stmt.body:
                        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) \
                                and small.target.value == name and small.value is not None:
                            return c.module, small.value
                        if isinstance(small, cst.Assign):
                            for t in small.targets:
                                if isinstance(t.target, cst.Name) and t.target.value == name:
                                    return c.module, small.value
        return None

    def method(self, name: str) -> Optional[FuncRef]:
        for stmt in self.node.body.body:  # own body first: no need to resolve the bases
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
                return FuncRef(self.module, stmt, self)
        for c in self.mro()[1:]:
            for stmt in c.node.body.body:
                if isinstance(stmt, cst.FunctionDef) and stmt.name.value == name:
                    return FuncRef(c.module, stmt, c)
        return None

    def enum_members(self) -> list[EnumMember]:
        out = []
        ev = Evaluator(self.project)
        auto_i = 0
        for stmt in self.node.body.body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            small = stmt.body[0]
            target = value = None
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                target, value = small.targets[0].target.value, small.value
            elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
                target, value = small.target.value, small.value
            if target is None or target.startswith("_"):
                continue
            if isinstance(value, cst.Call) and (_dotted(value.func) or "").endswith("auto"):
                auto_i += 1
                v = target.lower() if "StrEnum" in self.base_names() else auto_i
            else:
                v = ev.eval(value, self.module, {})
            out.append(EnumMember(self, target, v))
        return out


# --------------------------------------------------------------------------- evaluation


_BUILTIN_CALLABLES = {"int", "float", "str", "bool", "dict", "list", "tuple", "set", "frozenset",
                      "bytes", "object", "type", "len", "sorted", "any", "all", "print"}


class Evaluator:
    """Evaluate expressions to Python values (or UNKNOWN / references)."""

    def __init__(self, project: Project, context: Optional[dict] = None):
        self.project = project
        self.context = context or {}
        self._depth = 0

    # -- names
    def name(self, name: str, module: Module, env: dict) -> Any:
        if name in env:
            return env[name]
        if name in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[name]
        r = self.project.lookup(module.name, name)
        if r is None:
            if name in _BUILTIN_CALLABLES or name in ("Ellipsis",):
                return Ref(name)
            return Ref(name)
        return self._binding_value(r, name)

    def _binding_value(self, r: Any, name: str) -> Any:
        if isinstance(r, (ModRef, Ref)):
            return r
        mod, b = r
        kind = b[0]
        if kind == "class":
            return self.project.class_info(mod, b[1])
        if kind == "func":
            return FuncRef(mod, b[1])
        if kind == "value":
            return self._guarded(b[1], mod)
        if kind == "ann":
            if b[2] is None:
                return UNKNOWN
            return self._guarded(b[2], mod)
        return UNKNOWN

    def _guarded(self, expr, mod) -> Any:
        if self._depth > 40:
            return UNKNOWN
        self._depth += 1
        try:
            return self.eval(expr, mod, {})
        finally:
            self._depth -= 1

    def attr(self, base: Any, attr: str) -> Any:
        if base is UNKNOWN:
            return UNKNOWN
        if isinstance(base, ModRef):
            if base.name == "sys" and attr == "argv":
                return list(self.context.get("argv", eras.RUN_ARGV))
            if base.name == "sys" and attr == "modules":
                return {}
            r = self.project.lookup(base.name, attr)
            if r is None:
                return Ref(f"{base.name}.{attr}")
            return self._binding_value(r, attr)
        if isinstance(base, Ref):
            return Ref(f"{base.name}.{attr}")
        if isinstance(base, ClassInfo):
            if base.is_enum:
                for m in base.enum_members():
                    if m.name == attr:
                        return m
            meth = base.method(attr)
            if meth is not None:
                return BoundMethod(meth, base)
            if attr == "__name__":
                return base.name
            if attr == "__doc__":
                return base.doc
            found = base.class_attr(attr)
            if found is not None:
                return self.field_default(found[1], found[0])
            for stmt in base.node.body.body:  # a nested class (0.4's VisionLanguageConfig.ImageInputType)
                if isinstance(stmt, cst.ClassDef) and stmt.name.value == attr:
                    return self.project.class_info(base.module, stmt)
            return Ref(f"{base.name}.{attr}")
        if isinstance(base, EnumMember):
            if attr == "value":
                return base.value
            if attr == "name":
                return base.name
            return UNKNOWN
        if isinstance(base, Instance):
            if attr in base.attrs:
                return base.attrs[attr]
            if base.cls is not None:
                meth = base.cls.method(attr)
                if meth is not None:
                    return BoundMethod(meth, base)
                found = base.cls.class_attr(attr)
                if found is not None:
                    return self.eval(found[1], found[0], {})
            return UNKNOWN
        if isinstance(base, (str, dict, list, set, tuple)):
            return Ref(f"<{type(base).__name__}>.{attr}", (base,))
        return UNKNOWN

    # -- defaults of dataclass fields
    def field_default(self, expr: Optional[cst.BaseExpression], module: Module) -> Any:
        """The default a dataclass field assignment gives (``field(default=...)``,
        ``field(default_factory=...)``, ``Field(...)``, plain values)."""
        if expr is None:
            return UNKNOWN
        if isinstance(expr, cst.Call):
            fn = _dotted(expr.func) or ""
            short = fn.rsplit(".", 1)[-1]
            if short in ("field", "Field"):
                for a in expr.args:
                    kw = a.keyword.value if a.keyword else None
                    if kw == "default" or (kw is None and short == "Field" and a is expr.args[0]):
                        return self.eval(a.value, module, {})
                    if kw == "default_factory":
                        return self.call_factory(a.value, module)
                return UNKNOWN
        return self.eval(expr, module, {})

    def call_factory(self, expr: cst.BaseExpression, module: Module) -> Any:
        if isinstance(expr, cst.Lambda):
            return self.eval(expr.body, module, {})
        v = self.eval(expr, module, {})
        if isinstance(v, Ref):
            return {"list": [], "dict": {}, "set": set(), "tuple": (), "frozenset": set()}.get(v.name, UNKNOWN)
        return UNKNOWN

    # -- expressions
    def eval(self, expr: Optional[cst.BaseExpression], module: Module, env: dict) -> Any:
        try:
            return self._eval(expr, module, env)
        except RecursionError:  # pragma: no cover
            return UNKNOWN

    def _eval(self, e, module: Module, env: dict) -> Any:
        """Dispatch on the node's class (:data:`_EVAL_BY_TYPE`); a kind not listed is UNKNOWN."""
        if e is None:
            return None
        cls = type(e)
        handler = _EVAL_BY_TYPE.get(cls)
        if handler is None:
            handler = _EVAL_BY_TYPE[cls] = _eval_handler(cls)
        return handler(self, e, module, env)

    def _eval_unknown(self, e, module: Module, env: dict) -> Any:
        return UNKNOWN

    def _eval_string(self, e, module: Module, env: dict) -> Any:
        try:
            v = e.evaluated_value
        except Exception:  # noqa: BLE001
            return UNKNOWN
        if isinstance(v, bytes):
            return UNKNOWN
        return v

    def _eval_fstring(self, e, module: Module, env: dict) -> Any:
        parts = []
        for p in e.parts:
            if isinstance(p, cst.FormattedStringText):
                parts.append(p.value)
            else:
                v = self._eval(p.expression, module, env)
                if v is UNKNOWN or not isinstance(v, (str, int, float)):
                    return UNKNOWN
                parts.append(str(v))
        return "".join(parts)

    def _eval_integer(self, e, module: Module, env: dict) -> Any:
        return int(e.value.replace("_", ""), 0)

    def _eval_float(self, e, module: Module, env: dict) -> Any:
        return float(e.value.replace("_", ""))

    def _eval_name(self, e, module: Module, env: dict) -> Any:
        return self.name(e.value, module, env)

    def _eval_attribute(self, e, module: Module, env: dict) -> Any:
        return self.attr(self._eval(e.value, module, env), e.attr.value)

    def _eval_unary(self, e, module: Module, env: dict) -> Any:
        v = self._eval(e.expression, module, env)
        if isinstance(e.operator, cst.Minus) and isinstance(v, (int, float)) and not isinstance(v, bool):
            return -v
        if isinstance(e.operator, cst.Not):
            if v is UNKNOWN or not isinstance(v, (bool, int, str, list, dict, type(None))):
                return UNKNOWN
            return not v
        return UNKNOWN

    def _eval_sequence(self, e, module: Module, env: dict) -> Any:
        """A list, tuple or set display (``*x`` elements spliced in)."""
        out: list = []
        for el in e.elements:
            if isinstance(el, cst.StarredElement):
                v = self._eval(el.value, module, env)
                if isinstance(v, dict):
                    v = list(v)
                if not isinstance(v, (list, tuple, set)):
                    return UNKNOWN
                out.extend(sorted(v, key=repr) if isinstance(v, set) else v)
            else:
                v = self._eval(el.value, module, env)
                if v is UNKNOWN:
                    return UNKNOWN
                out.append(v)
        if isinstance(e, cst.Tuple):
            return tuple(out)
        if isinstance(e, cst.Set):
            try:
                return set(out)
            except TypeError:
                return UNKNOWN
        return out

    def _eval_dict(self, e, module: Module, env: dict) -> Any:
        d: dict = {}
        for el in e.elements:
            if isinstance(el, cst.StarredDictElement):
                v = self._eval(el.value, module, env)
                if not isinstance(v, dict):
                    return UNKNOWN
                d.update(v)
            else:
                k = self._eval(el.key, module, env)
                if k is UNKNOWN or isinstance(k, (list, dict, set)):
                    return UNKNOWN
                d[k] = self._eval(el.value, module, env)
        return d

    def _eval_subscript(self, e, module: Module, env: dict) -> Any:
        base = self._eval(e.value, module, env)
        if isinstance(base, Ref) and base.short in ("Literal", "Optional", "Union", "Annotated"):
            return TypeResolver(self.project).resolve(e, module)
        if len(e.slice) != 1 or not isinstance(e.slice[0].slice, cst.Index):
            if isinstance(base, list) and len(e.slice) == 1 and isinstance(e.slice[0].slice, cst.Slice):
                s = e.slice[0].slice
                lo = self._eval(s.lower, module, env) if s.lower else None
                hi = self._eval(s.upper, module, env) if s.upper else None
                if (lo is None or isinstance(lo, int)) and (hi is None or isinstance(hi, int)):
                    return base[lo:hi]
            return UNKNOWN
        key = self._eval(e.slice[0].slice.value, module, env)
        if isinstance(base, dict):
            try:
                return base.get(key, UNKNOWN)
            except TypeError:
                return UNKNOWN
        if isinstance(base, (list, tuple)) and isinstance(key, int):
            try:
                return base[key]
            except IndexError:
                return UNKNOWN
        return UNKNOWN

    def _eval_binary(self, e, module: Module, env: dict) -> Any:
        a = self._eval(e.left, module, env)
        b = self._eval(e.right, module, env)
        if a is UNKNOWN or b is UNKNOWN:
            return UNKNOWN
        try:
            return _binary(e.operator, a, b)
        except Exception:  # noqa: BLE001
            return UNKNOWN

    def _eval_boolean(self, e, module: Module, env: dict) -> Any:
        a = self._eval(e.left, module, env)
        if a is UNKNOWN:
            return UNKNOWN
        if isinstance(e.operator, cst.And):
            return self._eval(e.right, module, env) if _truthy(a) else a
        return a if _truthy(a) else self._eval(e.right, module, env)

    def _eval_comparison(self, e, module: Module, env: dict) -> Any:
        left = self._eval(e.left, module, env)
        for c in e.comparisons:
            right = self._eval(c.comparator, module, env)
            if left is UNKNOWN or right is UNKNOWN:
                return UNKNOWN
            op = c.operator
            try:
                if isinstance(op, cst.In):
                    ok = left in right
                elif isinstance(op, cst.NotIn):
                    ok = left not in right
                elif isinstance(op, (cst.Equal, cst.Is)):
                    ok = left == right
                elif isinstance(op, (cst.NotEqual, cst.IsNot)):
                    ok = left != right
                else:
                    return UNKNOWN
            except TypeError:
                return UNKNOWN
            if not ok:
                return False
            left = right
        return True

    def _eval_ifexp(self, e, module: Module, env: dict) -> Any:
        t = self._eval(e.test, module, env)
        if t is UNKNOWN or not isinstance(t, (bool, int, str, list, dict, type(None))):
            return UNKNOWN
        return self._eval(e.body if t else e.orelse, module, env)

    def _eval_lambda(self, e, module: Module, env: dict) -> Any:
        return Lambda(module, e)

    def _comp(self, e, module: Module, env: dict) -> Any:
        f = e.for_in
        if f.inner_for_in is not None or f.asynchronous is not None:
            return UNKNOWN
        it = self._eval(f.iter, module, env)
        items = iterate(it)
        if items is None:
            return UNKNOWN
        out = []
        for item in items:
            local = dict(env)
            if not bind_target(f.target, item, local):
                return UNKNOWN
            ok = True
            for cond in f.ifs:
                c = self._eval(cond.test, module, local)
                if c is UNKNOWN:
                    return UNKNOWN
                ok = ok and _truthy(c)
            if ok:
                v = self._eval(e.elt, module, local)
                if v is UNKNOWN:
                    return UNKNOWN
                out.append(v)
        if isinstance(e, cst.SetComp):
            return set(out)
        return out

    def call(self, e: cst.Call, module: Module, env: dict) -> Any:
        fn = self._eval(e.func, module, env)
        args = []
        kwargs = {}
        for a in e.args:
            if a.star == "*":
                v = self._eval(a.value, module, env)
                if not isinstance(v, (list, tuple)):
                    return UNKNOWN
                args.extend(v)
            elif a.star == "**":
                v = self._eval(a.value, module, env)
                if not isinstance(v, dict):
                    return UNKNOWN
                kwargs.update(v)
            elif a.keyword is not None:
                kwargs[a.keyword.value] = self._eval(a.value, module, env)
            else:
                args.append(self._eval(a.value, module, env))
        return self.apply(fn, args, kwargs, e, module, env)

    def apply(self, fn: Any, args: list, kwargs: dict, e: cst.Call, module: Module, env: dict) -> Any:
        if isinstance(fn, Ref):
            short = fn.short
            name = fn.name
            if name.startswith("<"):  # method on a Python value
                recv = fn.args[0]
                return _py_method(recv, short, args)
            if short == "get_field" and len(args) == 2 and isinstance(args[0], ClassInfo) and isinstance(args[1], str):
                fi = args[0].field(args[1])
                if fi is None:
                    return UNKNOWN
                return self.field_default(fi.value, fi.module)
            if short == "get_args" and args:
                t = args[0]
                if isinstance(t, TypeHint) and t.kind == "literal":
                    return tuple(t.args)
                return UNKNOWN
            if name in ("list", "tuple", "sorted", "set", "frozenset") and len(args) == 1:
                items = iterate(args[0])
                if items is None:
                    return UNKNOWN
                items = list(items)
                if name == "sorted":
                    try:
                        return sorted(items, reverse=bool(kwargs.get("reverse", False)))
                    except TypeError:
                        return UNKNOWN
                if name in ("set", "frozenset"):
                    try:
                        return set(items)
                    except TypeError:
                        return UNKNOWN
                return list(items) if name == "list" else tuple(items)
            if name in ("itertools.permutations", "itertools.combinations") and args:
                # choices built from a Literal's values (`--collect-detailed-traces`' comma pairs)
                items = iterate(args[0])
                items = None if items is None else list(items)
                r = kwargs.get("r", args[1] if len(args) > 1 else None)
                if items is None or not (r is None or isinstance(r, int)) or len(items) > 12:
                    return UNKNOWN
                import itertools

                return list(getattr(itertools, short)(items, *([] if r is None else [r])))
            if name in ("list", "dict", "set", "tuple") and not args and not kwargs:
                return {"list": [], "dict": {}, "set": set(), "tuple": ()}[name]
            if name == "dict" and not args:
                return dict(kwargs)
            if name in ("int", "float", "str", "bool") and len(args) == 1 and not isinstance(args[0], (_Unknown,)):
                try:
                    if isinstance(args[0], (str, int, float, bool)):
                        return {"int": int, "float": float, "str": str, "bool": bool}[name](args[0])
                except (ValueError, TypeError):
                    return UNKNOWN
                return UNKNOWN
            if name == "len" and len(args) == 1 and isinstance(args[0], (list, tuple, dict, str, set)):
                return len(args[0])
            if name == "any" and len(args) == 1 and isinstance(args[0], list):
                return any(args[0])
            if name == "all" and len(args) == 1 and isinstance(args[0], list):
                return all(args[0])
            if short in ("Literal",):
                return UNKNOWN
            # anything else: a call of some library object
            return CallOf(name, tuple(args))
        if isinstance(fn, FuncRef):
            if fn.name == "get_field" and len(args) == 2 and isinstance(args[0], ClassInfo) \
                    and isinstance(args[1], str):
                return self.apply(Ref("get_field"), args, kwargs, e, module, env)
            return CallOf(fn.name, tuple(args))
        if isinstance(fn, BoundMethod):
            return CallOf(fn.func.name, tuple(args))
        return UNKNOWN


def _binary(op: cst.BaseBinaryOp, a: Any, b: Any) -> Any:
    """``a op b`` for the operators and operand types a release's option tables use."""
    if isinstance(op, cst.Add) and type(a) is type(b) and isinstance(a, (str, list, tuple, int, float)):
        return a + b
    if isinstance(op, cst.Multiply) and isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a * b
    if isinstance(op, cst.Power) and isinstance(a, int) and isinstance(b, int):
        return a ** b
    if isinstance(op, cst.Modulo) and isinstance(a, str):
        return UNKNOWN
    if isinstance(op, cst.Subtract) and isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a - b
    if isinstance(op, cst.LeftShift) and isinstance(a, int) and isinstance(b, int):
        return a << b
    if isinstance(op, cst.Divide) and isinstance(a, (int, float)) and isinstance(b, (int, float)) and b:
        return a / b
    if isinstance(op, cst.BitOr) and isinstance(a, dict) and isinstance(b, dict):
        return {**a, **b}
    return UNKNOWN


# Evaluator._eval's dispatch: node class -> handler (a class not listed is looked up along its MRO
# once, then cached; none found: UNKNOWN)
_EVAL_BY_TYPE: dict[type, Any] = {
    cst.SimpleString: Evaluator._eval_string,
    cst.ConcatenatedString: Evaluator._eval_string,
    cst.FormattedString: Evaluator._eval_fstring,
    cst.Integer: Evaluator._eval_integer,
    cst.Float: Evaluator._eval_float,
    cst.Name: Evaluator._eval_name,
    cst.Attribute: Evaluator._eval_attribute,
    cst.UnaryOperation: Evaluator._eval_unary,
    cst.List: Evaluator._eval_sequence,
    cst.Tuple: Evaluator._eval_sequence,
    cst.Set: Evaluator._eval_sequence,
    cst.Dict: Evaluator._eval_dict,
    cst.Subscript: Evaluator._eval_subscript,
    cst.BinaryOperation: Evaluator._eval_binary,
    cst.BooleanOperation: Evaluator._eval_boolean,
    cst.Comparison: Evaluator._eval_comparison,
    cst.IfExp: Evaluator._eval_ifexp,
    cst.Lambda: Evaluator._eval_lambda,
    cst.ListComp: Evaluator._comp,
    cst.SetComp: Evaluator._comp,
    cst.GeneratorExp: Evaluator._comp,
    cst.Call: Evaluator.call,
}


def _eval_handler(cls: type) -> Any:
    for base in cls.__mro__[1:]:
        if base in _EVAL_BY_TYPE:
            return _EVAL_BY_TYPE[base]
    return Evaluator._eval_unknown


def _truthy(v: Any) -> bool:
    if isinstance(v, (bool, int, float, str, list, dict, tuple, set, type(None))):
        return bool(v)
    return True


def _py_method(recv: Any, meth: str, args: list) -> Any:
    try:
        if isinstance(recv, str):
            if meth in ("replace", "lower", "upper", "strip", "removeprefix", "removesuffix",
                        "startswith", "endswith", "split", "join", "format", "capitalize", "title"):
                if any(a is UNKNOWN for a in args):
                    return UNKNOWN
                if meth == "join":
                    items = iterate(args[0])
                    return UNKNOWN if items is None else recv.join(str(x) for x in items)
                if meth == "format":
                    return UNKNOWN
                return getattr(recv, meth)(*args)
            return UNKNOWN
        if isinstance(recv, dict):
            if meth == "keys":
                return list(recv.keys())
            if meth == "values":
                return list(recv.values())
            if meth == "items":
                return list(recv.items())
            if meth == "get":
                return recv.get(args[0], args[1] if len(args) > 1 else None)
            return UNKNOWN
        if isinstance(recv, (list, tuple, set)):
            if meth == "copy":
                return list(recv)
            return UNKNOWN
    except Exception:  # noqa: BLE001
        return UNKNOWN
    return UNKNOWN


def iterate(v: Any) -> Optional[Iterator]:
    if isinstance(v, (list, tuple)):
        return iter(list(v))
    if isinstance(v, dict):
        return iter(list(v))
    if isinstance(v, set):
        try:
            return iter(sorted(v))
        except TypeError:
            return iter(sorted(v, key=repr))
    if isinstance(v, ClassInfo) and v.is_enum:
        return iter(v.enum_members())
    if isinstance(v, TypeHint) and v.kind == "literal":
        return iter(v.args)
    return None


def bind_target(target: cst.BaseExpression, value: Any, env: dict) -> bool:
    if isinstance(target, cst.Name):
        env[target.value] = value
        return True
    if isinstance(target, (cst.Tuple, cst.List)):
        if not isinstance(value, (tuple, list)) or len(value) != len(target.elements):
            return False
        for el, v in zip(target.elements, value):
            if not bind_target(el.value, v, env):
                return False
        return True
    return False


# --------------------------------------------------------------------------- type hints


@dataclass(frozen=True)
class TypeHint:
    """A normalised annotation.

    kind: "builtin" (name in int/float/str/bool/dict/list/tuple/set/NoneType/Any/Ellipsis),
    "literal" (args: the values), "generic" (name: origin builtin; args: TypeHints),
    "union" (args: members), "class" (cls: a ClassInfo), "other" (name: what it was called).
    """

    kind: str
    name: str = ""
    args: tuple = ()
    cls: Optional[ClassInfo] = None

    def __hash__(self) -> int:
        return hash((self.kind, self.name, self.args, id(self.cls.node) if self.cls else 0))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, TypeHint) and self.kind == other.kind and self.name == other.name
                and self.args == other.args and self.cls == other.cls)


NONE_T = TypeHint("builtin", "NoneType")
ANY_T = TypeHint("builtin", "Any")

_TYPING_ALIASES = {"List": "list", "Dict": "dict", "Tuple": "tuple", "Set": "set", "FrozenSet": "set",
                   "Sequence": "list", "Mapping": "dict", "MutableMapping": "dict", "Iterable": "list",
                   "MutableSequence": "list", "AbstractSet": "set", "DefaultDict": "dict",
                   "OrderedDict": "dict", "Type": "type", "Callable": "callable", "deque": "list"}
_BUILTINS = {"int", "float", "str", "bool", "dict", "list", "tuple", "set", "bytes", "frozenset", "type", "object"}


class TypeResolver:
    def __init__(self, project: Project):
        self.project = project
        self.ev = Evaluator(project)

    def resolve(self, ann: Optional[cst.BaseExpression], module: Module, _depth: int = 0) -> TypeHint:
        if ann is None or _depth > 30:
            return ANY_T
        d = _depth + 1
        if isinstance(ann, (cst.SimpleString, cst.ConcatenatedString)):
            try:
                text = ann.evaluated_value
                return self.resolve(cst.parse_expression(text), module, d)
            except Exception:  # noqa: BLE001
                return ANY_T
        if isinstance(ann, cst.Name) and ann.value == "None":
            return NONE_T
        if isinstance(ann, cst.Ellipsis):
            return TypeHint("builtin", "Ellipsis")
        if isinstance(ann, cst.BinaryOperation) and isinstance(ann.operator, cst.BitOr):
            return self._union([self.resolve(ann.left, module, d), self.resolve(ann.right, module, d)])
        if isinstance(ann, cst.Subscript):
            origin = self._origin_name(ann.value, module)
            elems = [s.slice.value for s in ann.slice if isinstance(s.slice, cst.Index)]
            if origin == "Literal":
                vals = []
                for el in elems:
                    v = self.ev.eval(el, module, {})
                    if isinstance(v, TypeHint) and v.kind == "literal":
                        vals.extend(v.args)
                    elif isinstance(v, EnumMember):
                        vals.append(v.value)
                    elif v is UNKNOWN:
                        # a nested Literal alias
                        t = self.resolve(el, module, d)
                        if t.kind == "literal":
                            vals.extend(t.args)
                    else:
                        vals.append(v)
                return TypeHint("literal", args=tuple(vals))
            if origin in ("Optional",):
                return self._union([self.resolve(elems[0], module, d), NONE_T])
            if origin == "Union":
                return self._union([self.resolve(x, module, d) for x in elems])
            if origin in ("Annotated", "Required", "NotRequired", "Final", "InitVar", "SkipValidation"):
                return self.resolve(elems[0], module, d)
            if origin in _BUILTINS or origin in _TYPING_ALIASES:
                base = _TYPING_ALIASES.get(origin, origin)
                if base == "callable":
                    return TypeHint("other", "Callable")
                if len(ann.slice) == 1 and isinstance(ann.slice[0].slice, cst.Index) and isinstance(elems[0], (cst.Tuple)) and base == "tuple":
                    elems = [x.value for x in elems[0].elements]
                return TypeHint("generic", base, tuple(self.resolve(x, module, d) for x in elems))
            # user generic (e.g. a TypeAlias with params) - resolve its origin
            return self.resolve(ann.value, module, d)
        if isinstance(ann, (cst.Name, cst.Attribute)):
            dotted = _dotted(ann) or ""
            short = dotted.rsplit(".", 1)[-1]
            if short in _BUILTINS:
                return TypeHint("builtin", short)
            if short in _TYPING_ALIASES and _TYPING_ALIASES[short] != "callable":
                return TypeHint("builtin", _TYPING_ALIASES[short])
            if short == "Any":
                return ANY_T
            if short == "Literal":
                return TypeHint("other", "Literal")
            # resolve through the module
            target = self._lookup(ann, module)
            if isinstance(target, ClassInfo):
                return TypeHint("class", target.name, cls=target)
            if isinstance(target, tuple):  # (module, expr) of an alias
                tmod, texpr = target
                if isinstance(texpr, cst.Call):  # TypeVar / NewType
                    f = (_dotted(texpr.func) or "").rsplit(".", 1)[-1]
                    if f == "NewType" and len(texpr.args) > 1:
                        return self.resolve(texpr.args[1].value, tmod, d)
                    if f == "TypeAliasType" and len(texpr.args) > 1:
                        return self.resolve(texpr.args[1].value, tmod, d)
                    return TypeHint("other", short)
                return self.resolve(texpr, tmod, d)
            return TypeHint("other", short)
        return ANY_T

    def _origin_name(self, expr: cst.BaseExpression, module: Module) -> str:
        d = _dotted(expr) or ""
        return d.rsplit(".", 1)[-1]

    def _lookup(self, ann: cst.BaseExpression, module: Module) -> Any:
        if isinstance(ann, cst.Name):
            r = self.project.lookup(module.name, ann.value)
        else:
            base = self.ev.eval(ann.value, module, {})
            if isinstance(base, ModRef):
                r = self.project.lookup(base.name, ann.attr.value)
            else:
                return None
        if r is None or isinstance(r, (Ref, ModRef)):
            return None
        mod, b = r
        if b[0] == "class":
            return self.project.class_info(mod, b[1])
        if b[0] == "value":
            return (mod, b[1])
        if b[0] == "ann" and b[2] is not None:
            return (mod, b[2])
        return None

    @staticmethod
    def _union(members: list[TypeHint]) -> TypeHint:
        flat: list[TypeHint] = []
        for m in members:
            for x in (m.args if m.kind == "union" else (m,)):
                if x not in flat:
                    flat.append(x)
        if len(flat) == 1:
            return flat[0]
        return TypeHint("union", args=tuple(flat))


def type_members(t: TypeHint) -> list[TypeHint]:
    """``get_type_hints`` of vLLM's arg_utils: the flattened members of a union."""
    return list(t.args) if t.kind == "union" else [t]


def type_str(t: TypeHint) -> str:
    """Normalised textual form of an annotation (``int | None``, ``list[int]``, ``str``)."""
    if t.kind == "builtin":
        return "None" if t.name == "NoneType" else ("..." if t.name == "Ellipsis" else t.name)
    if t.kind == "literal":
        kinds = {type(v).__name__ for v in t.args}
        return kinds.pop() if len(kinds) == 1 else "str"
    if t.kind == "generic":
        if not t.args:
            return t.name
        return f"{t.name}[{', '.join(type_str(a) for a in t.args)}]"
    if t.kind == "union":
        parts = []
        for a in t.args:
            s = type_str(a)
            if s not in parts:
                parts.append(s)
        if "None" in parts:  # None last
            parts.remove("None")
            parts.append("None")
        return " | ".join(parts)
    if t.kind == "class":
        if t.cls is not None and t.cls.is_enum:
            # pydantic takes an enum's values: say int or str only where all of them are one
            # (CUDAGraphMode mixes ints and tuples: `1` is a value, not a wrong type)
            kinds = {type(m.value).__name__ for m in t.cls.enum_members()}
            return {"int": "int", "str": "str"}.get(kinds.pop(), t.name) if len(kinds) == 1 else t.name
        return t.name
    return t.name or "Any"


def literal_choices(t: TypeHint) -> Optional[list]:
    """Choices a (possibly optional) Literal / Enum annotation admits."""
    for m in type_members(t):
        if m.kind == "literal":
            return list(m.args)
        if m.kind == "class" and m.cls is not None and m.cls.is_enum:
            return [em.value if not isinstance(em.value, _Unknown) else em.name for em in m.cls.enum_members()]
    return None
