"""Scopes and data flow: what a name is bound to where a launch uses it, and what changed it since.

A module, function, class or lambda is a :class:`Scope`. Its bindings (``cmd = [...]``) and
mutations (``cmd.append(...)``, ``env["X"] = ...``, ``args += [...]``) are collected from its own
statements when a launch first looks a name up (issue 7's pruning: most files never do)."""

from __future__ import annotations

import ast

from ...record import Record
from .callees import ENTRIES
from .walk import FUNC_DEFS, STMTS, blocks

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional


class Binding(Record):
    __slots__ = ("pos", "value", "stmt")

    def __init__(self, pos: tuple[int, int], value: ast.AST, stmt: ast.stmt) -> None:
        self.pos = pos  # (line, column): only ever compared
        self.value = value
        self.stmt = stmt


class Mutation(Record):
    __slots__ = ("pos", "stmt", "kind", "node", "key")

    def __init__(self, pos: tuple[int, int], stmt: ast.stmt, kind: str, node: Optional[ast.AST],
                 key: Optional[ast.AST] = None) -> None:
        self.pos = pos
        self.stmt = stmt
        self.kind = kind  # "setitem" | "extend" | "append" | "insert" | "iadd" | "update" | "other"
        self.node = node  # the value / argument
        self.key = key


class Scope:
    """A module, function, class or lambda. Its bindings and mutations are collected from its own
    statements (not those of nested functions and classes) when a launch first looks a name up."""

    def __init__(self, node: ast.AST, parent: Optional["Scope"], parent_body: dict[int, list]):
        self.node = node
        self.parent = parent
        self._parent_body = parent_body
        self._bindings: Optional[dict[str, list[Binding]]] = None
        self._mutations: dict[str, list[Mutation]] = {}
        self._local_defs: set[str] = set()

    @property
    def bindings(self) -> dict[str, list[Binding]]:
        if self._bindings is None:
            self.collect()
        return self._bindings  # type: ignore[return-value]

    @property
    def mutations(self) -> dict[str, list[Mutation]]:
        if self._bindings is None:
            self.collect()
        return self._mutations

    @property
    def local_defs(self) -> set[str]:
        """The module's names that shadow an import: functions, classes and assignments to an
        entry class's name (anywhere outside functions and classes)."""
        if self._bindings is None:
            self.collect()
        return self._local_defs

    def collect(self) -> None:
        """Record the scope's bindings, mutations, statement blocks (``parent_body``) and, for the
        module, ``local_defs``."""
        bindings: dict[str, list[Binding]] = {}
        mutations: dict[str, list[Mutation]] = {}
        local_defs = self._local_defs if self.parent is None else None
        parent_body = self._parent_body
        stack = [] if self.node.__class__ is ast.Lambda else [self.node]
        while stack:
            node = stack.pop()
            for name in blocks(node.__class__):
                body = getattr(node, name)
                for st in body:
                    parent_body[id(st)] = body
                    cls = st.__class__
                    if cls in FUNC_DEFS:  # a scope of its own
                        if local_defs is not None:
                            local_defs.add(st.name)
                        continue
                    if cls in STMTS:
                        _record_statement(st, bindings, mutations)
                        if local_defs is not None and cls is not ast.Expr and cls is not ast.AugAssign:
                            for t in (st.targets if cls is ast.Assign else [st.target]):
                                if t.__class__ is ast.Name and t.id in ENTRIES:
                                    local_defs.add(t.id)
                    elif blocks(cls):
                        stack.append(st)
        for lst in bindings.values():
            lst.sort(key=lambda b: b.pos)
        for mlst in mutations.values():
            mlst.sort(key=lambda m: m.pos)
        self._bindings, self._mutations = bindings, mutations


def _record_statement(st: ast.stmt, bindings: dict[str, list[Binding]], mutations: dict[str, list[Mutation]]) -> None:
    """The names an assignment binds, and the changes it (or a method call) makes to a name."""
    pos = (st.lineno, st.col_offset)
    if isinstance(st, (ast.Assign, ast.AnnAssign)):
        targets = st.targets if isinstance(st, ast.Assign) else [st.target]
        if st.value is None:
            return
        for t in targets:
            if isinstance(t, ast.Name):
                bindings.setdefault(t.id, []).append(Binding(pos, st.value, st))
            elif isinstance(t, ast.Subscript):
                if isinstance(t.value, ast.Name):
                    mutations.setdefault(t.value.id, []).append(Mutation(pos, st, "setitem", st.value, t.slice))
            elif isinstance(t, (ast.Tuple, ast.List)):
                for e in t.elts:
                    if isinstance(e, ast.Name):
                        bindings.setdefault(e.id, []).append(Binding(pos, e, st))  # unknown
    elif isinstance(st, ast.AugAssign):
        if isinstance(st.target, ast.Name):
            mutations.setdefault(st.target.id, []).append(
                Mutation(pos, st, "iadd" if isinstance(st.op, ast.Add) else "other", st.value))
    elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
        f = st.value.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            kind = f.attr if f.attr in ("extend", "append", "insert", "update") else "other"
            if f.attr in ("extend", "append", "insert", "update", "setdefault", "pop", "clear",
                          "remove", "popitem", "__setitem__"):
                node = st.value.args[-1] if st.value.args else None
                mutations.setdefault(f.value.id, []).append(Mutation(pos, st, kind, node))


def lookup(name: str, scope: Scope, pos: tuple[int, int]) -> tuple[Optional[Binding], Scope]:
    """The binding of ``name`` visible from ``scope`` at byte ``pos`` (latest one before it)."""
    s: Optional[Scope] = scope
    while s is not None:
        binds = s.bindings.get(name)
        if binds and (s is scope or not isinstance(s.node, ast.ClassDef)):
            if s is scope:
                before = [b for b in binds if b.pos < pos]
                return (before[-1] if before else None), s
            return binds[-1], s
        s = s.parent
    return None, scope


def rebound(name: str, bscope: Scope, pos: tuple[int, int], scope: Scope) -> bool:
    """More than one binding could reach ``pos`` (``if``/``else`` branches, loops)."""
    binds = bscope.bindings.get(name, [])
    if bscope is scope:
        binds = [b for b in binds if b.pos < pos]
    return len(binds) > 1


def mutations_since(name: str, bscope: Scope, binding: Binding, pos: tuple[int, int], scope: Scope) -> list[Mutation]:
    """Changes to ``name`` after ``binding`` (and before ``pos`` when in the call's scope)."""
    muts = [m for m in bscope.mutations.get(name, []) if m.pos > binding.pos]
    if bscope is scope:
        muts = [m for m in muts if m.pos < pos]
    elif scope.mutations.get(name):
        muts = muts + [m for m in scope.mutations[name] if m.pos < pos]
    return muts


def resolve_name(node: ast.AST, scope: Scope, pos: tuple[int, int]) -> tuple[ast.AST, list[Mutation], Optional[Binding]]:
    """What a name is bound to at ``pos`` (with its later changes); any other node as it is."""
    if isinstance(node, ast.Name):
        binding, bscope = lookup(node.id, scope, pos)
        if binding is not None and binding.value is not binding.stmt:
            return binding.value, mutations_since(node.id, bscope, binding, pos, scope), binding
    return node, [], None
