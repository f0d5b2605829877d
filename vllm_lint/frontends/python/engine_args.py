"""Engine-argument calls: ``LLM(...)``, ``EngineArgs(...)``, ``AsyncEngineArgs(...)``.

Keyword arguments become KeyedArgs (``style="kwargs"``); the first positional is the model.
``**{...}`` and ``**name`` (bound to a mapping the module spells out, with its later
``name["k"] = v`` / ``name.update(...)`` in the same block) are expanded; what cannot be read
makes the launch opaque."""

from __future__ import annotations

import ast

from ...launch import KeyedArg, Launch, Span
from .literals import NOT_LITERAL, decode_literal, literal, placeholder
from .scope import Mutation, Scope, lookup, mutations_since, rebound
from .source import WS
from .state import PyFile

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

MAPPING_NODES = (ast.Dict, ast.Call, ast.BinOp, ast.DictComp, ast.Name)
_MAX_DEPTH = 8  # mappings followed through names and operators


def _env_default(fx: PyFile, node: ast.AST):
    """:func:`.environ.env_default` (``environ`` imported when a value is no literal: issue 31's
    ninth pass)."""
    from .environ import env_default
    return env_default(fx, node)


def kwargs_launch(fx: PyFile, call: ast.Call, entry: str, scope: Scope) -> None:
    src = fx.src
    launch = Launch(path=fx.path, entry=entry, style="kwargs", span=src.span(call))
    layout = fx.call_layout(call)
    order = sorted(list(call.args) + list(call.keywords), key=lambda n: (n.lineno, n.col_offset))
    index = {id(n): i for i, n in enumerate(order)}
    for n in order:
        i = index[id(n)]
        delete = layout.delete_span(i) if layout is not None else None
        if isinstance(n, ast.Starred):
            launch.opaque = True
            continue
        if isinstance(n, ast.keyword):
            if n.arg is None:
                _splat(fx, n.value, launch, scope, call)
                continue
            ka = keyed_value(fx, n.arg, fx.kw_span(n), n.value, delete)
            ka.key_style = "snake"
            launch.keyed.append(ka)
            if n.arg == "model":
                launch.model = ka.value
            continue
        # a positional argument
        if n is call.args[0]:
            ka = keyed_value(fx, "model", None, n, None)
            launch.keyed.append(ka)
            launch.model = ka.value
        else:
            launch.context.setdefault("positional", []).append(src.text(src.span(n)))
    fx.result.launches.append(launch)


def keyed_value(fx: PyFile, key: str, key_span: Optional[Span], value: ast.AST,
                delete: Optional[Span]) -> KeyedArg:
    vspan = fx.src.span(value)
    lit = literal(value)
    ka = KeyedArg(key=key, key_span=key_span, value=None, value_span=vspan, delete_span=delete)
    if lit is NOT_LITERAL and (found := _env_default(fx, value)) is not None:
        # int(os.environ.get("BLOCK_SIZE", "4096")): checked as its default, and the finding says so
        lit, default, ka.assumed = found
        ka.value_span = fx.src.span(default)
        ka.value = lit
        if str(lit) == str(default.value):
            ka.value_text_span = _value_text_span(fx, default, ka.value_span, default.value)
        return ka
    if lit is NOT_LITERAL:
        ka.value_opaque = True
        return ka
    ka.value = lit
    ka.value_text_span = _value_text_span(fx, value, vspan, lit)
    return ka


def _value_text_span(fx: PyFile, value: ast.AST, vspan: Span, lit: Any) -> Optional[Span]:
    if isinstance(lit, str) and isinstance(value, ast.Constant):
        info = decode_literal(fx.src, vspan, placeholder)
        if info is not None and info.value == lit:
            return info.verbatim
        return None
    if isinstance(lit, (bool, int, float)) or lit is None:
        raw = fx.src.data[vspan.start:vspan.end]
        if raw and not any(c in WS or c == 0x23 for c in raw):
            return vspan
    return None


def _splat(fx: PyFile, value: ast.AST, launch: Launch, scope: Scope, call: ast.Call) -> None:
    """``**value`` in a kwargs call."""
    node = value
    mutations: list[Mutation] = []
    pos = (call.lineno, call.col_offset)
    if isinstance(value, ast.Name):
        binding, bscope = lookup(value.id, scope, pos)
        if binding is None or binding.value is binding.stmt or not isinstance(binding.value, MAPPING_NODES):
            launch.opaque = True
            return
        node = binding.value
        mutations = mutations_since(value.id, bscope, binding, pos, scope)
        if rebound(value.id, bscope, pos, scope):
            launch.opaque = True
    keyed, opaque = mapping(fx, node, scope, pos)
    if opaque is None:
        launch.opaque = True
        return
    launch.keyed.extend(keyed)
    launch.opaque = launch.opaque or opaque
    for m in mutations:
        if m.kind == "setitem" and isinstance(m.key, ast.Constant) and isinstance(m.key.value, str) \
                and fx.same_block(m.stmt, binding.stmt):
            kspan = fx.str_inner(m.key)
            launch.keyed.append(keyed_value(fx, m.key.value, kspan, m.node, fx.stmt_delete(m.stmt)))
        elif m.kind == "update" and m.node is not None and fx.same_block(m.stmt, binding.stmt):
            more, op = mapping(fx, m.node)
            if op is None:
                launch.opaque = True
            else:
                launch.keyed.extend(more)
                launch.opaque = launch.opaque or op
        else:
            launch.opaque = True


def mapping(fx: PyFile, node: ast.AST, scope: Optional[Scope] = None, pos: Optional[tuple[int, int]] = None,
            depth: int = 0) -> tuple[list[KeyedArg], Optional[bool]]:
    """KeyedArgs of a dict literal or ``dict(k=v, ...)``, in the order they take effect (a key
    given twice is there twice: the first is silently lost, VL108); opaque is None if not a
    mapping. With ``scope`` and ``pos`` (where the mapping is used), a name bound once to a
    mapping in the same module is followed (``{**BASE, ...}``, ``DEFAULTS | overrides``), and
    a comprehension that copies a known mapping (``{k: v for k, v in D.items() if ...}``)
    gives its keys (opaque: its condition may drop some)."""
    if depth > _MAX_DEPTH:
        return [], None
    if isinstance(node, ast.Name) and scope is not None and pos is not None:
        return _named_mapping(fx, node, scope, pos, depth)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, lop = mapping(fx, node.left, scope, pos, depth + 1)
        right, rop = mapping(fx, node.right, scope, pos, depth + 1)
        if lop is None and rop is None:
            return [], None
        return left + right, lop is None or rop is None or bool(lop) or bool(rop)
    if isinstance(node, ast.DictComp):
        return _copied_mapping(fx, node, scope, pos, depth)
    if isinstance(node, ast.Dict):
        return _dict_mapping(fx, node, scope, pos, depth)
    if isinstance(node, ast.Call) and fx.names.dotted(node.func) == "dict":
        return _dict_call_mapping(fx, node)
    return [], None


def _named_mapping(fx: PyFile, node: ast.Name, scope: Scope, pos: tuple[int, int],
                   depth: int) -> tuple[list[KeyedArg], Optional[bool]]:
    """A name bound to a mapping: opaque when bound twice or changed before ``pos``."""
    binding, bscope = lookup(node.id, scope, pos)
    if binding is None or binding.value is binding.stmt or not isinstance(binding.value, MAPPING_NODES):
        return [], None
    keyed, op = mapping(fx, binding.value, bscope, (binding.stmt.lineno, binding.stmt.col_offset), depth + 1)
    if op is not None and (rebound(node.id, bscope, pos, scope)
                           or mutations_since(node.id, bscope, binding, pos, scope)):
        op = True
    return keyed, op


def _copied_mapping(fx: PyFile, node: ast.DictComp, scope: Optional[Scope], pos: Optional[tuple[int, int]],
                    depth: int) -> tuple[list[KeyedArg], Optional[bool]]:
    """``{k: v for k, v in D.items() if ...}`` over a known mapping ``D``."""
    gens = node.generators
    if len(gens) == 1 and isinstance(gens[0].target, ast.Tuple) and len(gens[0].target.elts) == 2 \
            and all(isinstance(e, ast.Name) for e in gens[0].target.elts) \
            and isinstance(node.key, ast.Name) and node.key.id == gens[0].target.elts[0].id \
            and isinstance(node.value, ast.Name) and node.value.id == gens[0].target.elts[1].id \
            and isinstance(gens[0].iter, ast.Call) and isinstance(gens[0].iter.func, ast.Attribute) \
            and gens[0].iter.func.attr == "items" and not gens[0].iter.args:
        keyed, op = mapping(fx, gens[0].iter.func.value, scope, pos, depth + 1)
        if op is not None:
            return keyed, bool(op) or bool(gens[0].ifs)
    return [], None


def _dict_mapping(fx: PyFile, node: ast.Dict, scope: Optional[Scope], pos: Optional[tuple[int, int]],
                  depth: int) -> tuple[list[KeyedArg], Optional[bool]]:
    out: list[KeyedArg] = []
    opaque = False
    layout = fx.dict_layout(node)
    for i, (k, v) in enumerate(zip(node.keys, node.values)):
        if k is None:  # **x inside the literal
            more, op = mapping(fx, v, scope, pos, depth + 1)
            out.extend(more)
            opaque = opaque or op is None or bool(op)
            continue
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
            opaque = True
            continue
        out.append(keyed_value(fx, k.value, fx.str_inner(k), v, layout.delete_span(i)))
    return out, opaque


def _dict_call_mapping(fx: PyFile, node: ast.Call) -> tuple[list[KeyedArg], Optional[bool]]:
    """``dict(k=v, ...)``, and dict literals among its arguments."""
    out: list[KeyedArg] = []
    opaque = False
    layout = fx.call_layout(node)
    order = sorted(list(node.args) + list(node.keywords), key=lambda n: (n.lineno, n.col_offset))
    for i, n in enumerate(order):
        if isinstance(n, ast.keyword) and n.arg is not None:
            out.append(keyed_value(fx, n.arg, fx.kw_span(n), n.value,
                                   layout.delete_span(i) if layout else None))
        elif isinstance(n, ast.Dict):
            more, op = mapping(fx, n)
            out.extend(more)
            opaque = opaque or bool(op)
        else:
            opaque = True
    return out, opaque
