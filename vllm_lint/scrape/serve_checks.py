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

import re
from typing import Any, Iterable, Optional

import libcst as cst

from . import eras
from .pyresolve import FuncRef, ModRef, Module, Project, _dotted

FUNCTION = "validate_parsed_serve_args"

#: entry -> the modules that run it, newest layout first: ``vllm serve``'s subcommand, the
#: OpenAI api_server module's ``__main__`` block (eras.py)
_SERVE_MODULES = eras.SERVE_SUBCOMMAND_MODULES
_API_SERVER = eras.OPENAI_API_SERVER


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
    rec = {"function": func.module.path, "entries": sorted(entries),
           "checks": _checks(project, func, options)}
    values = _value_checks(project, func, options)
    if values:  # only where the validator checks an option's value by itself (0.33+)
        rec["values"] = values
    return rec


# --------------------------------------------------------------------------- one option's value


def _value_checks(project: Project, func: FuncRef, options: list[dict]) -> dict:
    """dest -> ``{"option", "object": true, "values": "str", "keys": [...]}`` for the validators
    the serve validator calls on one option's value at its top level (``f(args.x)``,
    ``f(getattr(args, "x", None))``) whose body refuses, past ``if v is None: return``, a value
    that is not a dict of strings and keys outside ``get_args(<Literal>)``: 0.33's
    ``validate_reasoning_effort_map`` (``--reasoning-effort-map``, keys ``ReasoningEffort``)."""
    params = func.node.params.params
    if not params:
        return {}
    ns = params[0].name.value
    by_dest = {o["dest"]: o["name"] for o in options}
    out: dict = {}
    for stmt in func.node.body.body:
        if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
                and isinstance(stmt.body[0], cst.Expr) and isinstance(stmt.body[0].value, cst.Call)):
            continue
        call = stmt.body[0].value
        if not isinstance(call.func, cst.Name) or len(call.args) != 1:
            continue
        dest = _namespace_read(call.args[0].value, ns)
        if dest not in by_dest:
            continue
        target = _function_named(project, func.module, func.node, call.func.value)
        if target is None:
            continue
        keys = _mapping_of_strings(project, target)
        if keys:
            out[dest] = {"option": by_dest[dest], "object": True, "values": "str", "keys": keys}
    return out


def _namespace_read(e: cst.BaseExpression, ns: str) -> Optional[str]:
    if isinstance(e, cst.Attribute) and isinstance(e.value, cst.Name) and e.value.value == ns:
        return e.attr.value
    if isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value == "getattr" \
            and len(e.args) >= 2 and isinstance(e.args[0].value, cst.Name) and e.args[0].value.value == ns \
            and isinstance(e.args[1].value, cst.SimpleString):
        return str(e.args[1].value.evaluated_value)
    return None


def _mapping_of_strings(project: Project, fn: FuncRef) -> Optional[list]:
    """The keys ``fn(v)`` allows where it refuses every value but ``None`` and a dict whose values
    are strings and whose keys are ``get_args(L)`` of a ``Literal`` ``L``; None for any other body."""
    from .pyresolve import TypeResolver, literal_choices

    params = fn.node.params.params
    if len(params) != 1:
        return None
    v = params[0].name.value
    code = cst.Module([]).code_for_node(fn.node)
    body = [s for s in fn.node.body.body if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
                                                 and isinstance(s.body[0], cst.Expr)
                                                 and isinstance(s.body[0].value, cst.SimpleString))]
    if not body or not (isinstance(body[0], cst.If) and cst.Module([]).code_for_node(body[0].test).strip()
                        == f"{v} is None" and "return" in cst.Module([]).code_for_node(body[0].body)):
        return None
    allowed: Optional[str] = None
    literal = None
    for s in body[1:]:
        if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Assign) \
                and isinstance(s.body[0].value, cst.Call) and _dotted(s.body[0].value.func) in ("get_args",
                                                                                              "typing.get_args") \
                and len(s.body[0].targets) == 1 and isinstance(s.body[0].targets[0].target, cst.Name) \
                and len(s.body[0].value.args) == 1:
            allowed, literal = s.body[0].targets[0].target.value, s.body[0].value.args[0].value
    if allowed is None or literal is None:
        return None
    flat = " ".join(code.split())
    needs = (f"not isinstance({v}, dict)", f".values()", f"set({v}) - set({allowed})")
    if not all(n in flat for n in needs) or not re.search(r"isinstance\(\w+, str\)", flat) or "raise" not in flat:
        return None
    t = TypeResolver(project).resolve(literal, fn.module)
    choices = literal_choices(t)
    if not choices or not all(isinstance(c, str) for c in choices):
        return None
    return list(choices)


# --------------------------------------------------------------------------- finding the function


def _imported_validator(project: Project, mod: Module, scope: cst.CSTNode) -> Optional[FuncRef]:
    """The validator that ``scope`` (a module, a function, a block) imports by name, anywhere in
    it (vLLM often imports it inside the function that calls it), or defines at module level."""
    b = mod.bindings.get(FUNCTION)
    if b is not None and b[0] == "func":
        return FuncRef(mod, b[1])
    return _imported_function(project, mod, scope, FUNCTION)


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

#: the pseudo-dest ``getattr(args, "subparser", None)``: "serve" under ``vllm serve``, absent
#: (None) under the api_server module
SUBPARSER = "subparser"
#: the pseudo-dest of a test of an environment variable's truth: ``env:<NAME>`` (with ``"env"``)
ENV_PREFIX = "env:"
_NEGATED = {"set": "unset", "unset": "set", "none": "not_none", "not_none": "none", "<": ">=", ">=": "<",
            ">": "<=", "<=": ">", "==": "!=", "!=": "==", "in": "not_in", "not_in": "in"}
_FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
_COMPARE = {cst.LessThan: "<", cst.LessThanEqual: "<=", cst.GreaterThan: ">", cst.GreaterThanEqual: ">=",
            cst.Equal: "==", cst.NotEqual: "!="}
_UNKNOWN = "?"      # a condition the reader cannot state: a conjunction holding it is never recorded
_MAX_TERMS = 16     # a condition whose disjunctive form grows past this is not read
_MAX_DEPTH = 3      # validators called from validators, followed this deep


class _Reader:
    """Reads one validator (and the validators it calls with the namespace) into checks.
    ``names``: dest -> the names a check records for it (the release's option strings, or a
    config class's field name)."""

    def __init__(self, project: Project, by_dest: dict[str, list[str]], pseudo: frozenset = frozenset({SUBPARSER})):
        self.project = project
        self.by_dest = by_dest
        self.pseudo = pseudo
        self.out: list[dict] = []
        self.module: Optional[Module] = None
        #: module name -> its module-level tuples of strings a membership test may name (read
        #: only for the resolvers of eras.START_RESOLVERS)
        self.constants: dict[str, dict[str, list]] = {}
        self.items = False  # read checks over each item of a list (a config class's, class_checks)
        self.rows: dict[str, list] = {}  # a list of the fields that differ from their defaults

    def function(self, func: FuncRef, param: str, guard: list[dict], assigned: set[str], depth: int,
                 aliases: Optional[dict[str, str]] = None) -> None:
        outer, self.module = self.module, func.module
        rows, self.rows = self.rows, {}  # the names of one function
        self._block(func, func.node.body.body, param, guard, dict(aliases or {}), assigned, depth)
        self.rows = rows
        self.module = outer

    def _env_read(self, e: cst.BaseExpression) -> Optional[str]:
        """The variable whose value ``e`` reads through vLLM's environment module
        (``envs.VLLM_USE_RUST_FRONTEND``, ``import vllm.envs as envs``), or None."""
        if not (isinstance(e, cst.Attribute) and isinstance(e.value, cst.Name)) or self.module is None:
            return None
        name = e.attr.value
        if not name.isupper():
            return None
        bound = self.project.lookup(self.module.name, e.value.value)
        return name if isinstance(bound, ModRef) and bound.name == eras.ENVS else None

    def _block(self, func: FuncRef, stmts, param: str, guard: list[dict], aliases: dict[str, str],
               assigned: set[str], depth: int) -> bool:
        """Reads statements in order; False once one may return (what follows runs only on some
        paths), True at the end of the block."""
        for stmt in stmts:
            if depth == 0 and _is_subcommand_guard(stmt, param):
                continue
            if isinstance(stmt, cst.If) and stmt.orelse is None and self._if(func, stmt, param, guard, aliases,
                                                                             assigned, depth):
                continue
            if isinstance(stmt, cst.If) and stmt.orelse is None and _sole(stmt, cst.Return):
                negated = self._dnf(stmt.test, param, aliases, negate=True)
                if negated is not None and len(negated) == 1 and _UNKNOWN not in negated[0]:
                    guard = guard + negated[0]  # what follows runs only where the return did not
                    continue
                return False
            if self.items and isinstance(stmt, cst.For) and stmt.orelse is None and isinstance(stmt.target, cst.Name):
                dest = _value_read(stmt.iter, param, aliases)
                if dest is not None:
                    self._each(stmt, dest, guard, assigned)
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
                        self._call(func.module, func.node, small.value, param, guard, assigned, depth)
                    elif isinstance(small, cst.Assign) and len(small.targets) == 1 \
                            and isinstance(small.targets[0].target, cst.Name):
                        dest = _value_read(small.value, param, aliases)
                        if dest is not None:
                            aliases[small.targets[0].target.value] = dest
                        else:
                            aliases.pop(small.targets[0].target.value, None)
                        rows = _changed_rows(small.value, param, aliases) if self.items else None
                        if rows is not None:
                            self.rows[small.targets[0].target.value] = rows
                        else:
                            self.rows.pop(small.targets[0].target.value, None)
            assigned |= assigned_dests(stmt, param)
            if _may_return(stmt):
                return False
        return True

    def _if(self, func: FuncRef, stmt: cst.If, param: str, guard: list[dict], aliases: dict[str, str],
            assigned: set[str], depth: int) -> bool:
        """``if T: raise`` (a check per way T can hold), ``if T: <imports> f(args)`` (f's checks
        under T) and ``if T: <statements that never return>`` (their checks under T); False for
        any other ``if``."""
        body = stmt.body.body
        if _sole(stmt, cst.Raise) or self.items and _raises_after_locals(stmt):
            for conj in self._dnf(stmt.test, param, aliases) or []:
                self._record(guard + conj, assigned)
            return True
        calls = [s.body[0].value for s in body if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
                 and isinstance(s.body[0], cst.Expr) and isinstance(s.body[0].value, cst.Call)]
        imports = [s for s in body if isinstance(s, cst.SimpleStatementLine)
                   and all(isinstance(x, (cst.Import, cst.ImportFrom)) for x in s.body)]
        if len(calls) == 1 and len(calls) + len(imports) == len(body):
            for conj in self._dnf(stmt.test, param, aliases) or []:
                if _UNKNOWN not in conj:
                    self._call(func.module, stmt, calls[0], param, guard + conj, assigned, depth)
            return True
        if _may_return(stmt):
            # what the branch refuses before it may return still holds under T; nothing after the
            # `if` is read (it runs only on some paths)
            for conj in self._dnf(stmt.test, param, aliases) or []:
                if _UNKNOWN not in conj:
                    self._block(func, body, param, guard + conj, dict(aliases), set(assigned), depth)
            return False
        inner_assigned = set(assigned)
        for conj in self._dnf(stmt.test, param, aliases) or []:
            if _UNKNOWN not in conj:
                inner_assigned = set(assigned)
                self._block(func, body, param, guard + conj, dict(aliases), inner_assigned, depth)
        assigned |= assigned_dests(stmt, param)
        for name in [n for n in aliases if any(isinstance(t, cst.AssignTarget) and isinstance(t.target, cst.Name)
                                               and t.target.value == n for t in _walk(stmt))]:
            aliases.pop(name)  # a name the branch may rebind is no longer known
        return True

    def _call(self, mod: Module, scope: cst.CSTNode, call: cst.Call, param: str, guard: list[dict],
              assigned: set[str], depth: int) -> None:
        """A validator called with the namespace (``f(args)``), read under ``guard``."""
        if depth >= _MAX_DEPTH or not isinstance(call.func, cst.Name):
            return
        at = [i for i, a in enumerate(call.args) if a.keyword is None and not a.star
              and isinstance(a.value, cst.Name) and a.value.value == param]
        if len(at) != 1:
            return
        target = _function_named(self.project, mod, scope, call.func.value)
        if target is None:
            return
        params = target.node.params.params
        if at[0] >= len(params):
            return
        self.function(target, params[at[0]].name.value, guard, set(assigned), depth + 1)

    def _each(self, loop: cst.For, dest: str, guard: list[dict], assigned: set[str]) -> None:
        """``for item in <param>.<dest>: if T(item): raise``: a check of each item of a list field
        (``CompilationConfig.custom_ops``), recorded with ``"each": dest`` and item atoms
        (``"item"``: ``"value"``, ``"len"`` for ``len(item)``, ``"first"`` for ``item[0]``)."""
        if dest in assigned or dest not in self.by_dest:
            return
        item = loop.target.value
        for stmt in loop.body.body:
            if not (isinstance(stmt, cst.If) and stmt.orelse is None and _sole(stmt, cst.Raise)):
                continue
            for conj in _item_dnf(stmt.test, item, dest) or []:
                if _UNKNOWN in conj or any(a["dest"] in assigned for a in guard):
                    continue
                when = [dict(a, option=_option_name(a["dest"], self.by_dest[a["dest"]])) for a in guard + conj]
                rec = {"kind": "when", "each": dest, "when": when}
                if rec not in self.out:
                    self.out.append(rec)

    def _record(self, conj: list, assigned: set[str]) -> None:
        if _UNKNOWN in conj or not conj:
            return
        dests = {a["dest"] for a in conj} | {a["dest2"] for a in conj if "dest2" in a}
        pseudo = {d for d in dests if d in self.pseudo or d.startswith(ENV_PREFIX)}
        if dests & assigned or any(d not in self.by_dest and d not in pseudo for d in dests):
            return
        if all(a["dest"] in pseudo for a in conj):
            return  # nothing the command line gives
        tests = [(a["dest"], a["test"]) for a in conj]
        if len(conj) == 2 and all("value" not in a and "dest2" not in a for a in conj) \
                and tests[0][1] == "set" and tests[1][1] in ("set", "unset") and not pseudo:
            a, b = tests[0][0], tests[1][0]
            rec = {"kind": "requires" if tests[1][1] == "unset" else "conflicts", "dests": [a, b],
                   "options": [_option_name(a, self.by_dest[a]), _option_name(b, self.by_dest[b])]}
        else:
            when = []
            for a in conj:
                a = dict(a)
                if a["dest"] not in pseudo:
                    a["option"] = _option_name(a["dest"], self.by_dest[a["dest"]])
                if "dest2" in a:
                    a["option2"] = _option_name(a["dest2"], self.by_dest[a["dest2"]])
                when.append(a)
            rec = {"kind": "when", "when": when}
        if rec not in self.out:
            self.out.append(rec)

    # ------------------------------------------------------------------- conditions

    def _dnf(self, e: cst.BaseExpression, param: str, aliases: dict[str, str],
             negate: bool = False) -> Optional[list[list]]:
        """The ways ``e`` (negated) holds: a list of conjunctions of atoms (``_UNKNOWN`` standing
        for a part the reader cannot state), or None when it grows too large."""
        if isinstance(e, cst.BooleanOperation):
            parts = [self._dnf(e.left, param, aliases, negate), self._dnf(e.right, param, aliases, negate)]
            if any(p is None for p in parts):
                return None
            if isinstance(e.operator, cst.And) != negate:  # a conjunction: every way of each, combined
                out = [c1 + c2 for c1 in parts[0] for c2 in parts[1]]
            else:
                out = parts[0] + parts[1]
            return out if len(out) <= _MAX_TERMS else None
        if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Not):
            return self._dnf(e.expression, param, aliases, not negate)
        if isinstance(e, cst.Comparison):
            return self._comparison(e, param, aliases, negate)
        if isinstance(e, cst.Name) and e.value in self.rows:
            # a list of the fields that differ from their defaults: true where any one does
            rows = self.rows[e.value]
            if not negate:
                return [[a] for a in rows]
            return [[_UNKNOWN if a == _UNKNOWN else dict(a, test=_NEGATED[a["test"]]) for a in rows]]
        dest = _truth_read(e, param, aliases)
        if dest is None:
            env = self._env_read(e)
            if env is not None:  # the truth of an environment variable vLLM reads (0.32+: --grpc-port)
                return [[{"dest": ENV_PREFIX + env, "env": env, "test": "unset" if negate else "set"}]]
            return [[_UNKNOWN]]
        return [[{"dest": dest, "test": "unset" if negate else "set"}]]

    def _comparison(self, e: cst.Comparison, param: str, aliases: dict[str, str],
                    negate: bool) -> Optional[list[list]]:
        atoms: list = []
        left = e.left
        for target in e.comparisons:
            atoms.append(_compare(left, target.operator, target.comparator, param, aliases,
                                  self.constants.get(self.module.name) if self.module is not None else None))
            left = target.comparator
        if len(atoms) == 1 and isinstance(atoms[0], list):
            pair = atoms[0]  # bool(a) != bool(b): one set and the other not
            xor = [[_atom(pair[0], "set"), _atom(pair[1], "unset")], [_atom(pair[0], "unset"), _atom(pair[1], "set")]]
            same = [[_atom(pair[0], "set"), _atom(pair[1], "set")], [_atom(pair[0], "unset"), _atom(pair[1], "unset")]]
            differ = pair[2] == "!="
            return xor if differ != negate else same
        if any(isinstance(a, list) for a in atoms):
            return [[_UNKNOWN]]
        if not negate:
            return [atoms]
        return [[_UNKNOWN if a == _UNKNOWN else dict(a, test=_NEGATED[a["test"]])] for a in atoms]


def _changed_rows(e: cst.BaseExpression, param: str, aliases: dict[str, str]) -> Optional[list]:
    """``[name for name, value, default in ((<str>, <param>.<dest>, <literal>), ...) if value !=
    default]`` (0.34's ``ProfilerConfig``: the proton options set to other than their defaults):
    one ``!=`` atom per row, the list being true where any holds."""
    if not isinstance(e, cst.ListComp) or not isinstance(e.elt, cst.Name):
        return None
    f = e.for_in
    if f.inner_for_in is not None or len(f.ifs) != 1 or not isinstance(f.target, cst.Tuple) \
            or len(f.target.elements) != 3 or not all(isinstance(x.value, cst.Name) for x in f.target.elements) \
            or not isinstance(f.iter, (cst.Tuple, cst.List)):
        return None
    name, value, default = (x.value.value for x in f.target.elements)
    t = f.ifs[0].test
    if e.elt.value != name or not (isinstance(t, cst.Comparison) and len(t.comparisons) == 1
                                   and isinstance(t.comparisons[0].operator, cst.NotEqual)
                                   and isinstance(t.left, cst.Name) and t.left.value == value
                                   and isinstance(t.comparisons[0].comparator, cst.Name)
                                   and t.comparisons[0].comparator.value == default):
        return None
    rows = []
    for el in f.iter.elements:
        row = el.value
        if not isinstance(row, cst.Tuple) or len(row.elements) != 3:
            return None
        _, read, lit = (x.value for x in row.elements)
        atom = _compare(read, cst.NotEqual(), lit, param, aliases) if _literal(lit)[0] else _UNKNOWN
        rows.append(atom if isinstance(atom, dict) else _UNKNOWN)
    return rows or None


def _item_dnf(e: cst.BaseExpression, item: str, dest: str, negate: bool = False) -> Optional[list[list]]:
    """The ways a test over one item of a list (``item``) holds, as conjunctions of item atoms
    (``_UNKNOWN`` for a part not stated); None when it grows too large."""
    if isinstance(e, cst.BooleanOperation):
        parts = [_item_dnf(e.left, item, dest, negate), _item_dnf(e.right, item, dest, negate)]
        if any(p is None for p in parts):
            return None
        if isinstance(e.operator, cst.And) != negate:
            out = [c1 + c2 for c1 in parts[0] for c2 in parts[1]]
        else:
            out = parts[0] + parts[1]
        return out if len(out) <= _MAX_TERMS else None
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Not):
        return _item_dnf(e.expression, item, dest, not negate)
    if not isinstance(e, cst.Comparison) or len(e.comparisons) != 1:
        return [[_UNKNOWN]]
    left, op, right = e.left, e.comparisons[0].operator, e.comparisons[0].comparator
    if isinstance(left, cst.Name) and left.value == item:
        of = "value"
    elif isinstance(left, cst.Call) and isinstance(left.func, cst.Name) and left.func.value == "len" \
            and len(left.args) == 1 and isinstance(left.args[0].value, cst.Name) and left.args[0].value.value == item:
        of = "len"
    elif isinstance(left, cst.Subscript) and isinstance(left.value, cst.Name) and left.value.value == item \
            and len(left.slice) == 1 and isinstance(left.slice[0].slice, cst.Index) \
            and isinstance(left.slice[0].slice.value, cst.Integer) and left.slice[0].slice.value.value == "0":
        of = "first"
    else:
        return [[_UNKNOWN]]
    if isinstance(op, (cst.In, cst.NotIn)):
        if not isinstance(right, (cst.Tuple, cst.List, cst.Set)) or any(isinstance(el, cst.StarredElement)
                                                                          for el in right.elements):
            return [[_UNKNOWN]]
        values = [_literal(el.value) for el in right.elements]
        if not values or not all(ok for ok, _ in values):
            return [[_UNKNOWN]]
        test = "in" if isinstance(op, cst.In) != negate else "not_in"
        return [[{"dest": dest, "item": of, "test": test, "values": [v for _, v in values]}]]
    name = _COMPARE.get(type(op))
    ok, v = _literal(right)
    if name is None or not ok:
        return [[_UNKNOWN]]
    return [[{"dest": dest, "item": of, "test": _NEGATED[name] if negate else name, "value": v}]]


def _raises_after_locals(stmt: cst.If) -> bool:
    """``if T:`` whose body binds local names only (the message's parts: ``options = ", ".join(...)``)
    and then raises, with no ``else``."""
    body = stmt.body.body
    if stmt.orelse is not None or len(body) < 2:
        return False
    *first, last = body
    if not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Raise)):
        return False
    return all(isinstance(s, cst.SimpleStatementLine) and all(
        isinstance(x, cst.Assign) and all(isinstance(t.target, cst.Name) for t in x.targets) for x in s.body)
        for s in first)


def _atom(dest: str, test: str) -> dict:
    return {"dest": dest, "test": test}


def _sole(stmt: cst.If, kind: type) -> bool:
    body = stmt.body.body
    return len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1 \
        and isinstance(body[0].body[0], kind)


def _literal(e: cst.BaseExpression) -> tuple[bool, Any]:
    """(True, value) for a number, string, None, True or False written as such."""
    if isinstance(e, cst.Integer):
        return True, int(e.value.replace("_", ""), 0)
    if isinstance(e, cst.Float):
        return True, float(e.value.replace("_", ""))
    if isinstance(e, cst.SimpleString):
        return True, e.evaluated_value
    if isinstance(e, cst.Name) and e.value in ("None", "True", "False"):
        return True, {"None": None, "True": True, "False": False}[e.value]
    if isinstance(e, cst.UnaryOperation) and isinstance(e.operator, cst.Minus):
        ok, v = _literal(e.expression)
        return (True, -v) if ok and isinstance(v, (int, float)) and not isinstance(v, bool) else (False, None)
    return False, None


def _value_read(e: cst.BaseExpression, param: str, aliases: dict[str, str]) -> Optional[str]:
    if isinstance(e, cst.Name) and e.value in aliases:
        return aliases[e.value]
    return _dest_read(e, param)


def _truth_read(e: cst.BaseExpression, param: str, aliases: dict[str, str]) -> Optional[str]:
    """The dest whose truth ``e`` is: a read of it, or ``bool(<read>)``."""
    if isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value == "bool" and len(e.args) == 1:
        e = e.args[0].value
    return _value_read(e, param, aliases)


def _compare(left: cst.BaseExpression, op: cst.BaseCompOp, right: cst.BaseExpression, param: str,
             aliases: dict[str, str], constants: Optional[dict[str, list]] = None) -> Any:
    """One ``left <op> right`` as an atom, ``_UNKNOWN``, or ``[a, b, op]`` for ``bool(a) op bool(b)``."""
    a = _value_read(left, param, aliases)
    constants = constants or {}
    if isinstance(op, (cst.Is, cst.IsNot)):
        if a is not None and isinstance(right, cst.Name) and right.value == "None":
            return _atom(a, "none" if isinstance(op, cst.Is) else "not_none")
        return _UNKNOWN
    if isinstance(op, (cst.In, cst.NotIn)):
        if a is not None and isinstance(right, cst.Name) and right.value in constants:
            return {"dest": a, "test": "in" if isinstance(op, cst.In) else "not_in", "values": constants[right.value]}
        if a is None or not isinstance(right, (cst.Tuple, cst.List, cst.Set)):
            return _UNKNOWN
        values = [_literal(el.value) for el in right.elements]
        if not values or not all(ok for ok, _ in values) or any(isinstance(el, cst.StarredElement)
                                                                for el in right.elements):
            return _UNKNOWN
        return {"dest": a, "test": "in" if isinstance(op, cst.In) else "not_in", "values": [v for _, v in values]}
    name = _COMPARE.get(type(op))
    if name is None:
        return _UNKNOWN
    if name in ("==", "!=") and _is_bool_call(left) and _is_bool_call(right):
        x, y = _truth_read(left, param, aliases), _truth_read(right, param, aliases)
        return [x, y, name] if x is not None and y is not None else _UNKNOWN
    b = _value_read(right, param, aliases)
    ok_r, vr = _literal(right)
    ok_l, vl = _literal(left)
    if a is not None and ok_r:
        return {"dest": a, "test": name, "value": vr}
    if b is not None and ok_l:
        return {"dest": b, "test": _FLIPPED[name], "value": vl}
    if a is not None and b is not None:
        return {"dest": a, "test": name, "dest2": b}
    return _UNKNOWN


def _is_bool_call(e: cst.BaseExpression) -> bool:
    return isinstance(e, cst.Call) and isinstance(e.func, cst.Name) and e.func.value == "bool"


def _imported_function(project: Project, mod: Module, scope: cst.CSTNode, name: str) -> Optional[FuncRef]:
    """The function ``name`` that ``scope`` imports by name (``from x import name``), anywhere in it."""
    for node in _walk(scope):
        if isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
            for alias in node.names:
                if isinstance(alias.name, cst.Name) and alias.name.value == name and alias.asname is None:
                    src = project._abs_import(mod, len(node.relative),
                                              _dotted(node.module) if node.module is not None else None)
                    r = project.lookup(src, name)
                    if isinstance(r, tuple) and r[1][0] == "func":
                        return FuncRef(r[0], r[1][1])
    return None


def _function_named(project: Project, mod: Module, scope: cst.CSTNode, name: str) -> Optional[FuncRef]:
    """The function ``name`` as ``scope`` sees it: imported by name inside it (vLLM imports
    validators in the branch that calls them), or bound in the module (defined or imported)."""
    found = _imported_function(project, mod, scope, name)
    if found is not None:
        return found
    r = project.lookup(mod.name, name)
    if isinstance(r, tuple) and r[1][0] == "func":
        return FuncRef(r[0], r[1][1])
    return None


def _checks(project: Project, func: FuncRef, options: list[dict]) -> list[dict]:
    """The refusals of the validator's top-level statements (and of the validators it calls with
    the namespace): each way an ``if ...: raise`` condition can hold, as a conjunction of tests
    of option values, under the conditions that lead there."""
    params = func.node.params.params
    if not params:
        return []
    by_dest: dict[str, list[str]] = {}
    for o in options:
        by_dest.setdefault(o["dest"], []).append(o["name"])
    reader = _Reader(project, by_dest)
    reader.function(func, params[0].name.value, [], set(), 0)
    return reader.out


def _option_name(dest: str, names: list[str]) -> str:
    spelled = "--" + dest.replace("_", "-")
    return spelled if spelled in names else sorted(names)[0]


def class_checks(project: Project, cls: Any, fields: Iterable[str]) -> list[dict]:
    """What a config class refuses after its fields are validated, read like the serve validator:
    the ``if ...: raise`` statements of its ``model_validator(mode="after")`` methods and of
    ``__post_init__`` (pydantic runs both when it builds the class), over ``self.<field>``.
    Checks are ``{"kind": "when", "when": [tests]}`` whose ``dest`` and ``option`` are the keys."""
    names = {f: [f] for f in fields}
    reader = _Reader(project, names, frozenset())
    reader.items = True
    methods = [(c, stmt) for c in cls.mro() for stmt in c.node.body.body
               if isinstance(stmt, cst.FunctionDef) and stmt.params.params
               and stmt.params.params[0].name.value == "self"]
    # a field another method may set (``__post_init__`` may fill one from the model before a
    # validator tests it) is not what the launch gave: no check on it; within the method read,
    # an assignment drops only the checks after it
    sets: dict[int, set[str]] = {}
    for _, fn in methods:
        names_set = assigned_dests(fn, "self")
        for n in _walk(fn):
            if isinstance(n, cst.Call) and (_dotted(n.func) or "").endswith("__setattr__") and len(n.args) >= 2:
                name = n.args[1].value
                names_set.add(name.evaluated_value if isinstance(name, cst.SimpleString) else "*")
        sets[id(fn)] = names_set
    for c, fn in methods:
        if fn.name.value != "__post_init__" and not _after_model_validator(fn):
            continue
        others = set().union(*(v for k, v in sets.items() if k != id(fn)))
        if "*" not in others:
            reader.function(FuncRef(c.module, fn), "self", [], others, 1)
    out = []
    for rec in reader.out:
        if rec["kind"] != "when":  # a pair: the same tests spelled out
            a, b = rec["dests"]
            rec = {"kind": "when", "when": [{"dest": a, "test": "set", "option": a},
                                            {"dest": b, "test": "unset" if rec["kind"] == "requires" else "set",
                                             "option": b}]}
        else:
            for t in rec["when"]:
                t["option"] = t["dest"]
                if "dest2" in t:
                    t["option2"] = t["dest2"]
        out.append(rec)
    return out


def _after_model_validator(fn: cst.FunctionDef) -> bool:
    for d in fn.decorators:
        e = d.decorator
        if isinstance(e, cst.Call) and (_dotted(e.func) or "").rsplit(".", 1)[-1] == "model_validator":
            return any(a.keyword is not None and a.keyword.value == "mode" and isinstance(a.value, cst.SimpleString)
                       and a.value.evaluated_value == "after" for a in e.args)
    return False


def _and_test_of(stmt: cst.CSTNode, sole: type) -> Optional[cst.BooleanOperation]:
    """The ``A and B`` test of ``if A and B: <sole statement>`` (no ``else``), or None."""
    if not isinstance(stmt, cst.If) or stmt.orelse is not None or not _sole(stmt, sole):
        return None
    test = stmt.test
    if not isinstance(test, cst.BooleanOperation) or not isinstance(test.operator, cst.And):
        return None
    return test


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


def assigned_dests(stmt: cst.CSTNode, param: str, whole: bool = False) -> set[str]:
    """Dests the statement may set on the namespace: ``args.x = ...`` (also augmented, annotated,
    in a loop or a branch) and ``setattr(args, "x", ...)``; ``"*"`` for a setattr of an unknown name.
    ``whole``: only what rebinds the dest (``args.x = ...``, also unpacked), not an item or
    attribute of its value (``args.x["k"] = v``)."""
    out: set[str] = set()
    for n in _walk(stmt):
        targets: list[cst.BaseExpression] = []
        if isinstance(n, cst.AssignTarget):
            targets = [n.target]
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign)):
            targets = [n.target]
        for t in targets:
            for m in (_unpacked(t) if whole else _walk(t)):
                if isinstance(m, cst.Attribute) and isinstance(m.value, cst.Name) and m.value.value == param:
                    out.add(m.attr.value)
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == "setattr" and n.args \
                and isinstance(n.args[0].value, cst.Name) and n.args[0].value.value == param:
            name = n.args[1].value if len(n.args) > 1 else None
            out.add(name.evaluated_value if isinstance(name, cst.SimpleString) else "*")
    return out


def _unpacked(target: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The names an assignment target rebinds: itself, or the elements of a tuple / list."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return [x for e in target.elements for x in _unpacked(e.value)]
    if isinstance(target, cst.StarredElement):
        return _unpacked(target.value)
    return [target]


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


def option_class_checks(project: Project, options: list[dict], find_class: Any) -> list[dict]:
    """The checks of the config classes that plain options feed (``"config": "Class.field"``),
    over those options: what the class refuses when start-up builds it from their values
    (``--collect-detailed-traces`` without ``--otlp-traces-endpoint``). Only classes that a
    ``create_*_config`` helper of ``EngineArgs`` builds (not ``create_engine_config`` nor
    ``create_model_config``: those read the model first), and a check only where every field
    it tests is fed by an option of the same name whose default is a constant and that no
    method of ``EngineArgs`` assigns (start-up hands the value over as given).
    ``{"class", "kind": "when", "when": [tests]}``, each test's ``dest`` / ``option`` the
    option's."""
    ea = project.find_class(eras.ARG_UTILS, "EngineArgs")
    if ea is None:
        return []
    rewritten: set[str] = set()
    built_early: set[str] = set()  # classes a create_*_config helper builds before the model is read
    for c in ea.mro():
        for stmt in c.node.body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.params.params:
                rewritten |= assigned_dests(stmt, stmt.params.params[0].name.value)
                name = stmt.name.value
                if name.startswith("create_") and name.endswith("_config") \
                        and name not in ("create_engine_config", "create_model_config"):
                    built_early.update(_called_names(stmt))
    fed: dict[str, dict[str, dict]] = {}
    for o in options:
        cls_name, _, fname = (o.get("config") or "").partition(".")
        if fname and fname == o["dest"] and not o.get("default_computed") and o["dest"] not in rewritten \
                and "*" not in rewritten:
            fed.setdefault(cls_name, {}).setdefault(fname, o)
    out: list[dict] = []
    for cls_name in sorted(fed):
        if cls_name not in built_early:
            continue  # built with the model or the engine: what it refuses is not settled here
        cls = find_class(cls_name)
        if cls is None:
            continue
        for check in class_checks(project, cls, list(fed[cls_name])):
            if "each" in check:
                continue  # a check over each item of a list: read for JSON config keys only
            when = []
            for t in check["when"]:
                t = dict(t, option=fed[cls_name][t["dest"]]["name"])
                if "dest2" in t:
                    t["option2"] = fed[cls_name][t["dest2"]]["name"]
                when.append(t)
            out.append({"class": cls_name, "kind": "when", "when": when})
    return out


# --------------------------------------------------------------------------- device ids at start

#: the platform method every start-up hands a device id the option's type leaves a string to: the
#: base platform takes ``int(id)`` or raises, CUDA looks a non-integer up as a GPU UUID with NVML
_PLATFORM_ID = "device_control_id_to_physical_device_id"


def device_id_checks(project: Project, options: list[dict]) -> list[dict]:
    """What start-up refuses in an option of device ids (``--device-ids``, 0.24+), read from the
    ``EngineArgs`` method that ``create_engine_config`` calls as ``self.<method>()`` outside any
    condition and that resolves the option through the platform (``_resolve_device_ids``).

    ``{"dest", "option", "method", "items", "checks"}``: ``items`` is ``"comma_digits"`` when the
    option's argparse type splits its value at commas and turns the parts that are digits into
    integers (the only item shape recorded); ``checks`` lists what the method refuses:
    ``"unique"`` (``if len(set(ids)) != len(ids): raise``), ``"not_mixed"`` (``if any(isinstance(i,
    str) ...): raise`` after the all-strings branch) and ``"platform_ids"`` (the strings go to
    the platform's ``device_control_id_to_physical_device_id``). The method's subject is the dest
    of its first statement, ``if not self.<dest>: return ...``."""
    ea = project.find_class(eras.ARG_UTILS, "EngineArgs")
    if ea is None:
        return []
    methods = ea.methods()
    engine = methods.get("create_engine_config")
    if engine is None:
        return []
    by_dest = {o["dest"]: o for o in options}
    out = []
    for name in unconditional_self_calls(engine):
        fn = methods.get(name)
        if fn is None or name.startswith("create_"):
            continue
        param = fn.params.params[0].name.value
        dest = _guard_dest(fn, param)
        if dest is None or dest not in by_dest:
            continue
        checks = set()
        for n in _walk(fn.body):
            if isinstance(n, cst.Attribute) and n.attr.value == _PLATFORM_ID:
                checks.add("platform_ids")
            if isinstance(n, cst.If) and _raises(n):
                text = _code(n.test)
                if text.replace(" ", "").startswith("len(set(") and "!=len(" in text.replace(" ", ""):
                    checks.add("unique")
                elif text.startswith("any(isinstance(") and ", str)" in text:
                    checks.add("not_mixed")
        if "platform_ids" not in checks:
            continue
        option = by_dest[dest]["name"]
        out.append({"dest": dest, "option": option, "method": name,
                    "items": _items_shape(project, option), "checks": sorted(checks)})
    return out


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _raises(stmt: cst.If) -> bool:
    return any(isinstance(s, cst.SimpleStatementLine) and any(isinstance(x, cst.Raise) for x in s.body)
               for s in getattr(stmt.body, "body", ()))


#: what a call inside may not run on every run of the function
_CONDITIONAL = (cst.If, cst.For, cst.While, cst.Try, cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.IfExp,
                cst.BooleanOperation, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def unconditional_calls(fn: cst.FunctionDef) -> list[cst.Call]:
    """The calls in ``fn`` that every run of it makes: outside ``if`` / loops / ``try`` / nested
    functions / conditional expressions / ``and`` / ``or`` / comprehensions, in source order
    (a ``return`` at the top level ends the search: what follows may not run)."""
    out: list[cst.Call] = []
    for stmt in getattr(fn.body, "body", ()):
        stack: list[cst.CSTNode] = [stmt]
        while stack:
            n = stack.pop()
            if isinstance(n, _CONDITIONAL):
                continue
            if isinstance(n, cst.Call):
                out.append(n)
            stack.extend(reversed(n.children))
        if isinstance(stmt, cst.SimpleStatementLine) and any(isinstance(x, cst.Return) for x in stmt.body):
            break
    return out


def unconditional_self_calls(fn: cst.FunctionDef) -> list[str]:
    """``self.<m>()`` calls without arguments that every run of ``fn`` makes, in source order."""
    self_name = fn.params.params[0].name.value
    return [n.func.attr.value for n in unconditional_calls(fn)
            if not n.args and isinstance(n.func, cst.Attribute) and isinstance(n.func.value, cst.Name)
            and n.func.value.value == self_name]


def _guard_dest(fn: cst.FunctionDef, param: str) -> Optional[str]:
    """``<dest>`` of a first statement ``if not <param>.<dest>: return ...``."""
    body = getattr(fn.body, "body", ())
    first = body[0] if body else None
    if not isinstance(first, cst.If) or first.orelse is not None or not _sole(first, cst.Return):
        return None
    t = first.test
    if isinstance(t, cst.UnaryOperation) and isinstance(t.operator, cst.Not):
        return _dest_read(t.expression, param)
    return None


def _items_shape(project: Project, option: str) -> Optional[str]:
    """``"comma_digits"`` when ``option``'s ``add_argument`` in ``EngineArgs`` has a ``type=``
    lambda that splits at ``","`` and turns digit parts into ``int`` (``--device-ids``), else None."""
    ea = project.find_class(eras.ARG_UTILS, "EngineArgs")
    for n in _walk(ea.node) if ea is not None else ():
        if not (isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value == "add_argument"
                and n.args and isinstance(n.args[0].value, cst.SimpleString)
                and n.args[0].value.evaluated_value == option):
            continue
        kind = next((a.value for a in n.args if a.keyword is not None and a.keyword.value == "type"), None)
        if not isinstance(kind, cst.Lambda):
            return None
        text = _code(kind).replace(" ", "")
        return "comma_digits" if '.split(",")' in text and ".isdigit()" in text and "int(" in text else None
    return None


# --------------------------------------------------------------------------- start-up resolvers


def resolver_checks(project: Project, options: list[dict]) -> list[dict]:
    """What the functions of ``eras.START_RESOLVERS`` refuse when ``EngineArgs.__post_init__``
    (every start, before the model is read) calls them on its own fields,
    ``self.<x> = f(self.<a>, self.<b>)``, as "when" checks over those options with ``"class":
    "EngineArgs"`` (0.22.0-0.29.0: ``resolve_quantization_config`` refuses
    ``--quantization-config`` beside a ``--quantization`` that is no online shorthand). Only a call
    that is a top-level statement of ``__post_init__`` and whose arguments are plain fields no
    earlier statement assigns; membership tests may name a module-level tuple of strings (its
    items, ``*dict.keys()`` of a module-level dict literal included)."""
    ea = project.find_class(eras.ARG_UTILS, "EngineArgs")
    if ea is None:
        return []
    post = next((st for c in ea.mro() for st in c.node.body.body
                 if isinstance(st, cst.FunctionDef) and st.name.value == "__post_init__" and st.params.params), None)
    if post is None:
        return []
    self_name = post.params.params[0].name.value
    by_dest: dict[str, list[str]] = {}
    for o in options:
        by_dest.setdefault(o["dest"], []).append(o["name"])
    reader = _Reader(project, by_dest)
    assigned: set[str] = set()
    for stmt in post.body.body:
        call = _resolver_call(stmt)
        if call is not None and isinstance(call.func, cst.Name) and call.func.value in eras.START_RESOLVERS:
            fn = _function_named(project, ea.module, post, call.func.value)
            dests = [_dest_read(a.value, self_name) if a.keyword is None and not a.star else None for a in call.args]
            if fn is not None and dests and all(d is not None and d in by_dest and d not in assigned for d in dests):
                params = fn.node.params.params
                if len(params) >= len(dests):
                    if fn.module.name not in reader.constants:
                        reader.constants[fn.module.name] = _string_tuples(project.text(fn.module.path) or "")
                    aliases = {params[i].name.value: d for i, d in enumerate(dests)}
                    reader.function(fn, "\0", [], set(), 0, aliases)
        assigned |= assigned_dests(stmt, self_name)
        if _may_return(stmt):
            break
    out = []
    for rec in reader.out:
        if rec["kind"] != "when":  # (a pair's shape, recorded as the tests it is)
            a, b = rec["dests"]
            rec = {"kind": "when", "when": [
                {"dest": a, "test": "set", "option": rec["options"][0]},
                {"dest": b, "test": "unset" if rec["kind"] == "requires" else "set", "option": rec["options"][1]}]}
        out.append(dict(rec, **{"class": "EngineArgs"}))
    return out


def _resolver_call(stmt: cst.CSTNode) -> Optional[cst.Call]:
    """The call of ``self.x = f(...)`` / ``f(...)`` written as a statement of its own."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return None
    small = stmt.body[0]
    value = small.value if isinstance(small, (cst.Assign, cst.Expr)) else None
    return value if isinstance(value, cst.Call) else None


def _string_tuples(text: str) -> dict[str, list]:
    """name -> the strings of each module-level tuple / list of string literals and of
    ``*<dict>.keys()`` of a module-level dict literal with string keys, in order."""
    import ast
    from .name_tables import top_level_assignments
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    values = dict(top_level_assignments(tree))
    out: dict[str, list] = {}
    for name, v in values.items():
        if not isinstance(v, (ast.Tuple, ast.List)):
            continue
        items: Optional[list] = []
        for el in v.elts:
            if isinstance(el, ast.Constant) and isinstance(el.value, str):
                items.append(el.value)
            elif isinstance(el, ast.Starred) and isinstance(el.value, ast.Call) and not el.value.args \
                    and isinstance(el.value.func, ast.Attribute) and el.value.func.attr == "keys" \
                    and isinstance(el.value.func.value, ast.Name) \
                    and isinstance(values.get(el.value.func.value.id), ast.Dict) \
                    and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                            for k in values[el.value.func.value.id].keys):
                items.extend(k.value for k in values[el.value.func.value.id].keys)
            else:
                items = None
                break
        if items:
            out[name] = items
    return out
