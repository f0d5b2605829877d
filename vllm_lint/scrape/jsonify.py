"""Statically evaluated Python values as JSON (what a release's option defaults and choices are
stored as). Its own module: both the option extractor (``extract``) and the environment-variable
extractor (``envs``) use it, and neither imports the other for it."""

from __future__ import annotations

from typing import Any

from .pyresolve import EnumMember


def to_json(v: Any) -> tuple[Any, bool]:
    """(JSON value, computed?) for a statically evaluated Python value."""
    if v is None or isinstance(v, (bool, int, str)):
        return v, False
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return None, True
        return v, False
    if isinstance(v, EnumMember):
        return to_json(v.value)
    if isinstance(v, (list, tuple)):
        out = []
        for x in v:
            j, c = to_json(x)
            if c:
                return None, True
            out.append(j)
        return out, False
    if isinstance(v, (set, frozenset)):
        j, c = to_json(list(v))
        if c:
            return None, True
        try:
            return sorted(j), False
        except TypeError:
            return sorted(j, key=repr), False
    if isinstance(v, dict):
        out_d = {}
        for k, x in v.items():
            if not isinstance(k, (str, int, float, bool)) or isinstance(k, bool):
                return None, True
            j, c = to_json(x)
            if c:
                return None, True
            out_d[str(k)] = j
        return out_d, False
    return None, True
