"""The environment a Python file sets: ``os.environ["X"] = ...``, ``os.environ.setdefault``,
``os.environ.update({...} | k=v)``, ``os.environ |= {...}``, ``os.putenv`` -> ``Extraction.env``
(every literal name, not only ``VLLM_*``: rules decide what matters), and the ``env=`` mappings
of a process call (``{**os.environ, "VLLM_X": "1"}``, ``dict(os.environ, ...)``)."""

from __future__ import annotations

import ast

from ...launch import EnvAssign, Span
from .scope import Scope, resolve_name
from .state import PyFile

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional, Union


def env_pos(ea: EnvAssign) -> int:
    sp = ea.name_span or ea.value_span
    return sp.start if sp is not None else -1


def env_assign(fx: PyFile, key: Union[str, ast.AST], value: Optional[ast.AST], delete: Optional[Span],
               name_span: Optional[Span] = None) -> Optional[EnvAssign]:
    """``key`` is a string literal node, or a keyword's name with ``name_span``."""
    if isinstance(key, str):
        name = key
    elif isinstance(key, ast.Constant) and isinstance(key.value, str):
        name = key.value
        name_span = fx.str_inner(key)
    else:
        return None
    ea = EnvAssign(name=name, name_span=name_span, value=None, delete_span=delete)
    if value is None:
        ea.value_opaque = True
        return ea
    ea.value_span = fx.src.span(value)
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        ea.value = value.value
        ea.value_text_span = fx.str_inner(value)
    else:
        ea.value_opaque = True
    return ea


def env_from_mapping(fx: PyFile, node: ast.AST, stmt_delete: Optional[Span]) -> list[EnvAssign]:
    out = []
    if isinstance(node, ast.Dict):
        layout = fx.dict_layout(node)
        for i, (k, v) in enumerate(zip(node.keys, node.values)):
            if k is None:
                continue
            delete = layout.delete_span(i) if len(node.keys) > 1 else stmt_delete
            ea = env_assign(fx, k, v, delete)
            if ea:
                out.append(ea)
    elif isinstance(node, ast.Call) and fx.names.dotted(node.func) == "dict":
        layout = fx.call_layout(node)
        order = sorted(list(node.args) + list(node.keywords), key=lambda n: (n.lineno, n.col_offset))
        for i, n in enumerate(order):
            if isinstance(n, ast.keyword) and n.arg is not None:
                ea = env_assign(fx, n.arg, n.value,
                                layout.delete_span(i) if layout and len(order) > 1 else None,
                                fx.kw_span(n))
                if ea:
                    out.append(ea)
            elif isinstance(n, ast.Dict):
                out.extend(env_from_mapping(fx, n, None))
    return out


def env_statement(fx: PyFile, st: ast.stmt, scope: Scope) -> None:
    """``os.environ["X"] = ...`` and ``os.environ |= {...}``."""
    names = fx.names
    if isinstance(st, ast.Assign):
        for t in st.targets:
            if isinstance(t, ast.Subscript) and names.is_environ(t.value):
                ea = env_assign(fx, t.slice, st.value, fx.stmt_delete(st) if len(st.targets) == 1 else None)
                if ea:
                    fx.result.env.append(ea)
    elif isinstance(st, ast.AugAssign) and names.is_environ(st.target):
        fx.result.env.extend(env_from_mapping(fx, st.value, fx.stmt_delete(st)))


def env_call(fx: PyFile, call: ast.Call, dotted: str) -> None:
    """``os.environ.setdefault(...)``, ``os.putenv(...)``, ``os.environ.update(...)``."""
    stmt = fx.expr_stmts.get(id(call))
    st_delete = fx.stmt_delete(stmt) if stmt is not None else None
    if dotted in ("os.environ.setdefault", "os.putenv", "os.environ.__setitem__"):
        if len(call.args) >= 2 and not call.keywords:
            ea = env_assign(fx, call.args[0], call.args[1], st_delete)
            if ea:
                fx.result.env.append(ea)
        return
    # os.environ.update({...}) / os.environ.update(A="1", B="2")
    if len(call.args) == 1 and not call.keywords:
        fx.result.env.extend(env_from_mapping(fx, call.args[0], st_delete))
    elif not call.args and call.keywords:
        layout = fx.call_layout(call)
        kws = sorted(call.keywords, key=lambda n: (n.lineno, n.col_offset))
        for i, n in enumerate(kws):
            if n.arg is None:
                continue
            delete = (layout.delete_span(i) if layout else None) if len(kws) > 1 else st_delete
            ea = env_assign(fx, n.arg, n.value, delete, fx.kw_span(n))
            if ea:
                fx.result.env.append(ea)


def env_kwarg(fx: PyFile, node: ast.AST, scope: Scope, pos: tuple[int, int]) -> list[EnvAssign]:
    """The ``env=`` of a process call: a mapping, or a name bound to one with its later changes."""
    node2, mutations, _binding = resolve_name(node, scope, pos)
    out: list[EnvAssign] = []
    if isinstance(node2, (ast.Dict, ast.Call)):
        out.extend(env_from_mapping(fx, node2, None))
    for m in mutations:
        if m.kind == "setitem" and m.key is not None:
            ea = env_assign(fx, m.key, m.node, fx.stmt_delete(m.stmt))
            if ea:
                out.append(ea)
        elif m.kind == "update" and m.node is not None:
            out.extend(env_from_mapping(fx, m.node, fx.stmt_delete(m.stmt)))
    return out


_CONVERSIONS = {"int": int, "float": float, "str": str}


def env_default(fx: PyFile, node: ast.AST) -> Optional[tuple[object, ast.Constant, str]]:
    """An engine argument read from the environment with a literal default:
    ``os.environ.get("X", "4096")``, ``os.getenv("X", "4096")``, optionally converted by
    ``int``/``float``/``str``: (the value the default gives, the default's node, the note that
    says so); None for anything else (a conversion the default fails is no value)."""
    convert = None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CONVERSIONS \
            and len(node.args) == 1 and not node.keywords:
        convert = _CONVERSIONS[node.func.id]
        node = node.args[0]
    if not (isinstance(node, ast.Call) and fx.names.dotted(node.func) in ("os.environ.get", "os.getenv")):
        return None
    args = list(node.args) + [k.value for k in node.keywords if k.arg == "default"]
    if len(args) != 2 or any(k.arg not in (None, "default") for k in node.keywords):
        return None
    name, default = args
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)
            and isinstance(default, ast.Constant) and isinstance(default.value, (str, int, float))
            and not isinstance(default.value, bool)):
        return None
    value = default.value
    if convert is not None:
        try:
            value = convert(value)
        except (TypeError, ValueError):
            return None
    elif not isinstance(value, str):
        return None  # os.environ.get("X", 4096) gives a str when set, an int when not: no one value
    return value, default, f"`{default.value}` is the default of `{name.value}`, used unless the environment sets it"
