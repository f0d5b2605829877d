"""The names a JSON config's nested fields take, read from dict literals of the class's module.

The tables are named per era in ``eras.NAME_TABLES``; this module reads them: the keys of a
module-level ``NAME: dict[...] = {...}`` literal, and for a shorthand table which of the class's
fields each entry sets (``"x": Cls(linear=..., moe=...)``). Anything it cannot read plainly (a
key that is not a string literal, an entry that is not a call of the class, a spread) gives no
names, and the lint stays silent.
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from . import eras


def top_level_assignments(module: ast.Module) -> Iterator[tuple[str, Optional[ast.expr]]]:
    """(name, value) of each module-level ``NAME = value`` / ``NAME: T = value`` of ``module``."""
    for node in module.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            yield node.target.id, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            yield node.targets[0].id, node.value


def _dict_literals(text: str) -> dict[str, ast.Dict]:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    return {target: value for target, value in top_level_assignments(tree) if isinstance(value, ast.Dict)}


def _keys(d: ast.Dict) -> Optional[list[str]]:
    keys = []
    for k in d.keys:
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
            return None  # a `**spread` or a computed key
        keys.append(k.value)
    return keys


def _shorthand_fields(d: ast.Dict, cls: str) -> Optional[dict[str, set[str]]]:
    """shorthand -> the fields of ``cls`` its entry sets (to something other than None)."""
    keys = _keys(d)
    if keys is None:
        return None
    out = {}
    for k, v in zip(keys, d.values):
        if not (isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == cls and not v.args
                and all(kw.arg is not None for kw in v.keywords)):
            return None
        out[k] = {kw.arg for kw in v.keywords
                  if not (isinstance(kw.value, ast.Constant) and kw.value.value is None)}
    return out


def field_names(text: Optional[str], cls: str) -> dict[str, dict]:
    """field -> ``{"names": [...], "key_names": {nested key: [...]}}`` for the fields of ``cls``
    that a row of :data:`eras.NAME_TABLES` names, read from its module's text."""
    if not text:
        return {}
    out: dict[str, dict] = {}
    literals = None
    for row in eras.NAME_TABLES:
        if row.cls != cls:
            continue
        if literals is None:
            literals = _dict_literals(text)
        names = literals.get(row.names)
        short = literals.get(row.shorthands)
        name_keys = _keys(names) if names is not None else None
        short_fields = _shorthand_fields(short, cls) if short is not None else None
        if name_keys is None or short_fields is None:
            continue
        nested: dict[str, list[str]] = {}
        for key, tables in row.nested:
            if tables[0] not in literals:
                break
            got: set[str] = set()
            for t in tables:
                ks = _keys(literals[t]) if t in literals else []
                if ks is None:
                    break
                got |= set(ks)
            else:
                nested[key] = sorted(got)
                continue
            break
        else:
            for f in row.fields:
                # the shorthand is looked up first: one that leaves the field unset is refused
                taken = {s for s, fs in short_fields.items() if f in fs}
                taken |= set(name_keys) - set(short_fields)
                out[f] = {"names": sorted(taken), "key_names": nested}
    return out


def _nested_names(literals: dict[str, ast.Dict], nested) -> Optional[dict[str, list[str]]]:
    out: dict[str, list[str]] = {}
    for key, tables in nested:
        if tables[0] not in literals:
            return None
        got: set[str] = set()
        for t in tables:
            ks = _keys(literals[t]) if t in literals else []
            if ks is None:
                return None
            got |= set(ks)
        out[key] = sorted(got)
    return out


def item_names(text: Optional[str], cls: str) -> dict[str, dict]:
    """field -> ``{"item_names": [...], "item_key_names": {nested key: [...]}}`` for the object
    fields of ``cls`` that a row of :data:`eras.ITEM_NAME_TABLES` names: each item is a name of the
    row's table, or an object whose keys take the nested tables' names."""
    if not text:
        return {}
    out: dict[str, dict] = {}
    literals = None
    for row in eras.ITEM_NAME_TABLES:
        if row.cls != cls:
            continue
        if literals is None:
            literals = _dict_literals(text)
        names = _keys(literals[row.names]) if row.names in literals else None
        nested = _nested_names(literals, row.nested)
        if names is None or nested is None:
            continue
        for f in row.fields:
            out[f] = {"item_names": sorted(names), "item_key_names": nested}
    return out
