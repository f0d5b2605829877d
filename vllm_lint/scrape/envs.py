"""Environment variables of one release: the keys of ``vllm/envs.py``'s ``environment_variables``.

The default is what the entry evaluates to with the variable unset (``os.getenv(name, d)`` gives
``d``, ``int(...)``/``bool(...)``/``.lower()`` and friends are applied), when that is statically
possible; otherwise ``default_computed`` is true. ``env_with_choices(name, default, choices)``
(and the list/set variants) give the choices. The type is the ``if TYPE_CHECKING:`` annotation.
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst

from . import eras
from .pyresolve import (
    UNKNOWN,
    CallOf,
    Evaluator,
    FuncRef,
    Module,
    Project,
    Ref,
    TypeResolver,
    literal_choices,
    type_str,
)


class _EnvEvaluator(Evaluator):
    """Evaluates an entry's body as if the environment were empty."""

    def name(self, name: str, module: Module, env: dict) -> Any:
        return super().name(name, module, env)

    def attr(self, base: Any, attr: str) -> Any:
        if isinstance(base, Ref) and base.name == "os" and attr == "environ":
            return {}
        from .pyresolve import ModRef
        if isinstance(base, ModRef) and base.name == "os" and attr == "environ":
            return {}
        return super().attr(base, attr)

    def apply(self, fn, args, kwargs, e, module, env):
        fname = getattr(fn, "name", "") if isinstance(fn, (Ref, FuncRef)) else ""
        if fname in ("os.getenv", "getenv", "os.environ.get"):
            if len(args) > 1:
                return args[1]
            return kwargs.get("default", None)
        if isinstance(fn, FuncRef) and fn.name in ("env_with_choices", "env_list_with_choices",
                                                     "env_set_with_choices", "get_env_or_set_default"):
            return UNKNOWN
        return super().apply(fn, args, kwargs, e, module, env)


def _lambda_body(expr: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    if isinstance(expr, cst.Lambda):
        return expr.body
    return None


def extract_env(project: Project, module: str = eras.ENVS,
                dict_names: tuple[str, ...] = ("environment_variables",)) -> dict:
    """The entries of ``module``'s environment dict (the first of ``dict_names`` it binds): vLLM's
    own, or a platform plugin's module of the same shape (``scrape/plugins.py``)."""
    mod = project.module(module)
    if mod is None:
        return {}
    b = next((mod.bindings[n] for n in dict_names if n in mod.bindings), None)
    if b is None or b[0] not in ("value", "ann"):
        return {}
    d = b[1] if b[0] == "value" else b[2]
    if not isinstance(d, cst.Dict):
        return {}
    types = TypeResolver(project)
    ev = _EnvEvaluator(project)
    plain = Evaluator(project)
    annotations = _type_checking_annotations(mod)
    out: dict = {}
    for el in d.elements:
        if not isinstance(el, cst.DictElement):
            continue
        key = plain.eval(el.key, mod, {})
        if not isinstance(key, str):
            continue
        value = el.value
        choices = None
        default: Any = UNKNOWN
        if isinstance(value, cst.Call):
            fname = (project.lookup(mod.name, value.func.value) if isinstance(value.func, cst.Name) else None)
            short = value.func.value if isinstance(value.func, cst.Name) else ""
            if short in ("env_with_choices", "env_list_with_choices", "env_set_with_choices"):
                pos = [a for a in value.args if a.keyword is None]
                kws = {a.keyword.value: a.value for a in value.args if a.keyword is not None}
                dexpr = pos[1].value if len(pos) > 1 else kws.get("default")
                cexpr = pos[2].value if len(pos) > 2 else kws.get("choices")
                if dexpr is not None:
                    default = plain.eval(dexpr, mod, {})
                if cexpr is not None:
                    c = plain.eval(cexpr, mod, {})
                    if isinstance(c, (list, tuple, set)):
                        choices = list(c) if not isinstance(c, set) else sorted(c, key=repr)
                    elif hasattr(c, "kind") and getattr(c, "kind", "") == "literal":
                        choices = list(c.args)
            del fname
        else:
            body = _lambda_body(value)
            if body is not None:
                default = ev.eval(body, mod, {})
        if isinstance(default, (Ref, CallOf)) or default is UNKNOWN:
            dj, computed = None, True
        else:
            from .jsonify import to_json
            dj, computed = to_json(default)
        ann = annotations.get(key)
        if ann is not None:
            t = types.resolve(ann, mod)
            tname = type_str(t)
            if choices is None:
                lc = literal_choices(t)
                if lc is not None and all(isinstance(x, str) for x in lc):
                    choices = None  # a Literal annotation is not a runtime check
        else:
            tname = type(dj).__name__ if dj is not None and not computed else "str"
            tname = {"NoneType": "str", "list": "list[str]", "dict": "dict"}.get(tname, tname)
        cj = None
        if choices is not None:
            from .jsonify import to_json
            cj, comp = to_json(choices)
            if comp:
                cj = None
        out[key] = {"type": tname, "default": dj, "default_computed": computed, "choices": cj,
                    "deprecated": None}
    return out


def _type_checking_annotations(mod: Module) -> dict:
    out: dict = {}
    for stmt in mod.node.body:
        if isinstance(stmt, cst.If):
            from .pyresolve import _is_type_checking
            if _is_type_checking(stmt.test):
                for s in stmt.body.body:
                    if isinstance(s, cst.SimpleStatementLine):
                        for small in s.body:
                            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                                out[small.target.value] = small.annotation.annotation
    return out
