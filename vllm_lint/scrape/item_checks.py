"""What an ``after`` field validator of a config class refuses in each item of a list option.

Start-up hands some list options unchanged to a pydantic config class (``start_fields``); a few
of those fields have an ``after`` validator that walks the items and raises (0.20.0+:
``ParallelConfig``'s ``numa_bind_nodes``, non-negative nodes, and ``numa_bind_cpus``, numactl
CPU lists with ascending ranges). The shapes of those bodies that are read are the rows of
``eras.ITEM_VALIDATOR_SHAPES``; ``item_checks(cls, field)`` gives the facts of the field's
validators (``{"ge": 0}``, ``{"nonempty": true, "pattern": "...", "ascending": true}``), or None
where the class has none of them. A validator with anything else in it is still read for these
shapes: each one found is a refusal of its own (what it does besides is not claimed).
"""

from __future__ import annotations

import ast
import re
from typing import Any, Optional

import libcst as cst

from . import eras
from .field_checks import field_validators, validated_fields
from .name_tables import top_level_assignments
from .pyresolve import ClassInfo


def item_checks(cls: ClassInfo, field: str, module_text: Optional[str]) -> Optional[dict]:
    """The item facts of ``field``'s ``after`` validators in ``cls`` (or a base), or None."""
    out: dict[str, Any] = {}
    for _c, stmt, found, _params in field_validators(cls, "after"):
        if field not in validated_fields(found[1]):
            continue
        code = cst.Module(body=[stmt]).code
        for key, shape in eras.ITEM_VALIDATOR_SHAPES:
            m = re.search(shape, code)
            if m is None:
                continue
            if key == "ge":
                out["ge"] = int(m.group("bound"))
            elif key == "pattern":
                pattern = _compiled_pattern(module_text or "", m.group("regex"))
                if pattern is not None:
                    out["pattern"] = pattern
            else:
                out[key] = True
    return out or None


def _compiled_pattern(text: str, name: str) -> Optional[str]:
    """The pattern of the module-level ``name = re.compile(r"...")``, or None."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    for target, value in top_level_assignments(tree):
        if target == name and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                and value.func.attr == "compile" and isinstance(value.func.value, ast.Name) \
                and value.func.value.id == "re" and len(value.args) == 1 and not value.keywords \
                and isinstance(value.args[0], ast.Constant) and isinstance(value.args[0].value, str):
            return value.args[0].value
    return None
