"""The start-up checks of ``validate_parsed_serve_args`` that pair two options, read statically.

``vllm serve`` (and ``python -m vllm.entrypoints.openai.api_server``) call
``validate_parsed_serve_args(args)`` right after ``parse_args``; a few of its statements refuse a
combination of two options. ``serve_checks(project, options)`` finds the function through the
entry modules' imports (it moved: ``vllm/entrypoints/openai/cli_args.py``, then
``launchers/cli_args.py`` at 0.29, ``common/cli_args.py`` at 0.33) and records only the two
certain shapes among its top-level statements:

* ``if <A> and not <B>: raise ...``: A requires B (``--enable-auto-tool-choice`` needs
  ``--tool-call-parser``);
* ``if <A> and <B>: raise ...``: A conflicts with B;

where ``<A>`` and ``<B>`` are ``args.<dest>`` or ``getattr(args, "<dest>", <default>)`` of the
function's parameter, and the body is the ``raise`` alone. Everything else is ignored (calls to
other validators, imports, comparisons, loops, logging). Scanning stops at a top-level statement
that may return early, except the subcommand guard (``if hasattr(args, "subparser") and
args.subparser != "serve": return``), which ``vllm serve`` and the api_server module both pass;
a check whose dest an earlier statement assigns (``args.x = ...``, ``setattr(args, "x", ...)``)
is dropped, as is one whose dests are not both options of the release. Dests are mapped to the
release's option names (the option spelled ``--<dest>`` when there is one).
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

import libcst as cst

from .pyresolve import FuncRef, Module, Project, _dotted

FUNCTION = "validate_parsed_serve_args"

#: entry -> the modules that run it, newest layout first: ``vllm serve``'s subcommand, the
#: OpenAI api_server module's ``__main__`` block
_SERVE_MODULES = ("vllm.entrypoints.cli.serve", "vllm.scripts")
_API_SERVER = "vllm.entrypoints.openai.api_server"


def serve_checks(project: Project, options: list[dict]) -> Optional[dict]:
    """``{"function": path, "entries": [...], "checks": [...]}`` (flag_db/README.md), or None when
    no entry of the release calls the validator."""
    entries: list[str] = []
    func: Optional[FuncRef] = None
    for modname in _SERVE_MODULES:
        mod = project.module(modname)
        if mod is None:
            continue
        found = _imported_validator(project, mod, mod.node)
        if found is not None and _calls(mod.node, FUNCTION):
            entries.append("vllm serve")
            func = func or found
        break  # the first serve module that exists is the release's
    api = project.module(_API_SERVER)
    if api is not None:
        found = _api_server_validator(project, api)
        if found is not None:
            entries.append("openai.api_server")
            func = func or found
    if func is None:
        return None
    return {"function": func.module.path, "entries": sorted(entries),
            "checks": _checks(func, options)}


# --------------------------------------------------------------------------- finding the function


def _imported_validator(project: Project, mod: Module, scope: cst.CSTNode) -> Optional[FuncRef]:
    """The validator that ``scope`` (a module, a function, a block) imports by name, anywhere in
    it (vLLM often imports it inside the function that calls it), or defines at module level."""
    b = mod.bindings.get(FUNCTION)
    if b is not None and b[0] == "func":
        return FuncRef(mod, b[1])
    for node in _walk(scope):
        if not isinstance(node, cst.ImportFrom) or isinstance(node.names, cst.ImportStar):
            continue
        for alias in node.names:
            if isinstance(alias.name, cst.Name) and alias.name.value == FUNCTION and alias.asname is None:
                src = project._abs_import(mod, len(node.relative),
                                          _dotted(node.module) if node.module is not None else None)
                r = project.lookup(src, FUNCTION)
                if isinstance(r, tuple) and r[1][0] == "func":
                    return FuncRef(r[0], r[1][1])
    return None


def _api_server_validator(project: Project, api: Module) -> Optional[FuncRef]:
    """The validator the api_server module's ``__main__`` block calls: itself, or through a
    ``main()`` it defines or imports in the block (0.29+: ``launchers/api_server/entry.py``)."""
    main = next((s for s in api.node.body if isinstance(s, cst.If) and _is_main_test(s.test)), None)
    if main is None:
        return None
    if _calls(main, FUNCTION):
        return _imported_validator(project, api, api.node)
    for name in _called_names(main):
        target: Any = None
        for node in _walk(main):
            if isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
                for alias in node.names:
                    if isinstance(alias.name, cst.Name) and (alias.asname.name.value if alias.asname
                                                             else alias.name.value) == name:
                        src = project._abs_import(api, len(node.relative),
                                                  _dotted(node.module) if node.module is not None else None)
                        target = project.lookup(src, alias.name.value)
        if target is None:
            b = api.bindings.get(name)
            target = (api, b) if b is not None and b[0] == "func" else None
        if isinstance(target, tuple) and target[1][0] == "func":
            mod, fn = target[0], target[1][1]
            if _calls(fn, FUNCTION):
                return _imported_validator(project, mod, fn) or _imported_validator(project, mod, mod.node)
    return None


def _is_main_test(test: cst.BaseExpression) -> bool:
    return isinstance(test, cst.Comparison) and any(
        isinstance(n, cst.SimpleString) and n.evaluated_value == "__main__" for n in _walk(test))


def _walk(node: cst.CSTNode) -> Iterable[cst.CSTNode]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def _calls(scope: cst.CSTNode, name: str) -> bool:
    return name in _called_names(scope)


def _called_names(scope: cst.CSTNode) -> list[str]:
    return [n.func.value for n in _walk(scope) if isinstance(n, cst.Call) and isinstance(n.func, cst.Name)]


# --------------------------------------------------------------------------- reading its checks


def _checks(func: FuncRef, options: list[dict]) -> list[dict]:
    params = func.node.params.params
    if not params:
        return []
    param = params[0].name.value
    by_dest: dict[str, list[str]] = {}
    for o in options:
        by_dest.setdefault(o["dest"], []).append(o["name"])
    assigned: set[str] = set()
    out: list[dict] = []
    for stmt in func.node.body.body:
        shape = _shape(stmt, param)
        if shape is not None:
            kind, a, b = shape
            if a not in assigned and b not in assigned and a in by_dest and b in by_dest:
                out.append({"kind": kind, "dests": [a, b], "options": [_option_name(a, by_dest[a]),
                                                                       _option_name(b, by_dest[b])]})
            continue
        assigned |= _assigned_dests(stmt, param)
        if _may_return(stmt) and not _is_subcommand_guard(stmt, param):
            break  # what follows runs only on some paths
    return out


def _option_name(dest: str, names: list[str]) -> str:
    spelled = "--" + dest.replace("_", "-")
    return spelled if spelled in names else sorted(names)[0]


def _and_test_of(stmt: cst.CSTNode, sole: type) -> Optional[cst.BooleanOperation]:
    """The ``A and B`` test of ``if A and B: <sole statement>`` (no ``else``), or None."""
    if not isinstance(stmt, cst.If) or stmt.orelse is not None:
        return None
    body = stmt.body.body
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or len(body[0].body) != 1 \
            or not isinstance(body[0].body[0], sole):
        return None
    test = stmt.test
    if not isinstance(test, cst.BooleanOperation) or not isinstance(test.operator, cst.And):
        return None
    return test


def _shape(stmt: cst.CSTNode, param: str) -> Optional[tuple[str, str, str]]:
    """("requires" | "conflicts", A, B) for ``if A and not B: raise`` / ``if A and B: raise``."""
    test = _and_test_of(stmt, cst.Raise)
    if test is None:
        return None
    left, right = test.left, test.right
    if isinstance(left, cst.BooleanOperation) or isinstance(right, cst.BooleanOperation):
        return None  # three operands: not a pair
    a = _dest_read(left, param)
    if a is None:
        return None
    if isinstance(right, cst.UnaryOperation) and isinstance(right.operator, cst.Not):
        b = _dest_read(right.expression, param)
        return ("requires", a, b) if b is not None else None
    b = _dest_read(right, param)
    return ("conflicts", a, b) if b is not None else None


def _dest_read(e: cst.BaseExpression, param: str) -> Optional[str]:
    """``args.<dest>`` or ``getattr(args, "<dest>", <literal default>)``: the dest."""
    if isinstance(e, cst.Attribute) and isinstance(e.value, cst.Name) and e.value.value == param:
        return e.attr.value
    if isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value == "getattr" \
            and len(e.args) in (2, 3) and all(a.keyword is None and not a.star for a in e.args):
        obj, name = e.args[0].value, e.args[1].value
        if isinstance(obj, cst.Name) and obj.value == param and isinstance(name, cst.SimpleString):
            dest = name.evaluated_value
            return dest if isinstance(dest, str) and dest.isidentifier() else None
    return None


def _assigned_dests(stmt: cst.CSTNode, param: str) -> set[str]:
    """Dests the statement may set on the namespace: ``args.x = ...`` (also augmented, annotated,
    in a loop or a branch) and ``setattr(args, "x", ...)``; ``"*"`` for a setattr of an unknown name."""
    out: set[str] = set()
    for n in _walk(stmt):
        targets: list[cst.BaseExpression] = []
        if isinstance(n, cst.AssignTarget):
            targets = [n.target]
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign)):
            targets = [n.target]
        for t in targets:
            for m in _walk(t):
                if isinstance(m, cst.Attribute) and isinstance(m.value, cst.Name) and m.value.value == param:
                    out.add(m.attr.value)
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == "setattr" and n.args \
                and isinstance(n.args[0].value, cst.Name) and n.args[0].value.value == param:
            name = n.args[1].value if len(n.args) > 1 else None
            out.add(name.evaluated_value if isinstance(name, cst.SimpleString) else "*")
    return out


def _may_return(stmt: cst.CSTNode) -> bool:
    """A ``return`` that ends the function here, outside a nested function or class."""
    stack = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Return):
            return True
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        stack.extend(n.children)
    return False


def _is_subcommand_guard(stmt: cst.CSTNode, param: str) -> bool:
    """``if hasattr(args, "subparser") and args.subparser <not serve>: return``: the early return of
    another subcommand, which ``vllm serve`` and the api_server module (no ``subparser``) pass."""
    t = _and_test_of(stmt, cst.Return)
    if t is None:
        return False
    first, second = t.left, t.right
    if not (isinstance(first, cst.Call) and isinstance(first.func, cst.Name) and first.func.value == "hasattr"
            and len(first.args) == 2 and isinstance(first.args[0].value, cst.Name)
            and first.args[0].value.value == param and isinstance(first.args[1].value, cst.SimpleString)
            and first.args[1].value.evaluated_value == "subparser"):
        return False
    # `args.subparser != "serve"` / `args.subparser not in ("serve", "launch")`
    return isinstance(second, cst.Comparison) and _dest_read(second.left, param) == "subparser" \
        and len(second.comparisons) == 1 \
        and isinstance(second.comparisons[0].operator, (cst.NotEqual, cst.NotIn)) \
        and any(isinstance(n, cst.SimpleString) and n.evaluated_value == "serve"
                for n in _walk(second.comparisons[0].comparator))
