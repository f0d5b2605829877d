"""The driver: parse the module, read its imports, walk the statements that may matter, and
hand each call and environment statement to its reader (engine-argument calls, process calls,
the environment), then the commands shown in strings and comments."""

from __future__ import annotations

import ast
import gc
import warnings

from ...foreign_launchers import call_names, launcher_of_call
from ...launch import Extraction, Note, ParseError, Span
from .argv_lists import standalone_argvs
from .callees import ENV_CALLS, INTERESTING_LAST, PROC_CALLS, SHELL_METHODS, WRAPPER_METHODS, entry_of
from . import manifests
from .documented import documented_commands, worth_reading
from .engine_args import kwargs_launch
from .scope import Scope
from .source import Source, source_encoding
from .state import PyFile
from .walk import CLASS_SPEC, FUNC_DEFS, IMPORTS, LEAF_TYPES, STMTS, blocks, class_spec, hit_lines, touching

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional


def extract(data: bytes, path: str) -> Extraction:
    """Launches, env assignments and notes found in Python source ``data``."""
    # The tree has no cycles and dies with this call, yet the cyclic garbage collector's passes,
    # which ast.parse's allocations trigger, traverse it: ~15% of the parse on the benchmark
    # corpus. The collector is off for the call, and back on afterwards if it was on.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _run(data, path)
    except ParseError:
        raise
    except (RecursionError, MemoryError) as exc:
        raise ParseError(f"expression nested too deeply to analyse ({type(exc).__name__})") from None
    finally:
        if enabled:
            gc.enable()


# the names of other tools' calls that start vLLM (foreign_launchers): lines worth walking
_FOREIGN_CALL_WORDS = tuple(sorted(n.encode() for n in call_names()))


def _parse(src: Source, path: str) -> ast.Module:
    try:
        with warnings.catch_warnings():  # the user's invalid escapes are not our warnings
            warnings.simplefilter("ignore")
            return ast.parse(src.data, filename=path, type_comments=False)
    except SyntaxError as exc:
        msg = exc.msg if getattr(exc, "msg", None) else str(exc)
        raise ParseError(f"Python syntax error: {msg}", line=exc.lineno) from None
    except (ValueError, TypeError) as exc:  # null bytes (3.11), odd encodings
        raise ParseError(f"cannot parse as Python: {exc}", line=1) from None
    except (RecursionError, MemoryError):
        raise ParseError("expression nested too deeply to parse", line=None) from None


def _line_start(data: bytes, line: Optional[int]) -> int:
    """The offset of 1-based ``line`` in ``data`` (0 when unknown or past the end)."""
    at = 0
    for _ in range((line or 1) - 1):
        nl = data.find(b"\n", at)
        if nl < 0:
            return 0
        at = nl + 1
    return at


def _run(data: bytes, path: str) -> Extraction:
    src = Source(data, source_encoding(data))
    try:
        tree = _parse(src, path)
    except ParseError as exc:
        # a file Python 3 does not parse (Python 2's `print x`): the shell commands its string
        # literals hold are still read, and the note says what was not
        if not exc.message.startswith("Python syntax error") or b"vllm" not in data:
            raise
        from .processes import string_commands
        out = string_commands(src, path)
        if not out.launches:
            raise
        at = _line_start(src.data, exc.line)  # (the note stands where Python stops)
        out.notes.append(Note(f"{exc.message} (line {exc.line}): only the shell commands in its strings "
                              "were read", Span(at, at)))
        return out
    fx = PyFile(data, path, src)
    _collect_imports(fx, tree, hit_lines(src, [b"import"]))
    # after the imports: a name imported as a callee we look at is one of the words
    lines = hit_lines(src, fx.names.alias_words() + [b"LLM", b"EngineArgs", *_FOREIGN_CALL_WORDS], attributes=True)
    module_scope = fx.names.module_scope = Scope(tree, None, fx.parent_body)
    calls, env_stmts = _walk(fx, tree, module_scope, lines)
    calls.sort(key=lambda cs: (cs[0].lineno, cs[0].col_offset))
    for call, scope in calls:
        _call(fx, call, scope)
    standalone_argvs(fx, tree, module_scope)
    env_stmts.sort(key=lambda ss: (ss[0].lineno, ss[0].col_offset))
    if env_stmts:
        from .environ import env_statement
        for st, scope in env_stmts:
            env_statement(fx, st, scope)
    if worth_reading(data):
        documented_commands(fx, tree, extract)
    if manifests.worth_reading(data):
        manifests.manifest_strings(fx, tree)
    if fx.result.env:
        from .environ import env_pos
        fx.result.env.sort(key=env_pos)
    return fx.result


def _collect_imports(fx: PyFile, tree: ast.Module, lines: Optional[list[int]]) -> None:
    """Every import, in the order of the full walk this replaced (the last one processed
    wins a name): depth first, a block's later statements first. Only statements whose lines
    say ``import`` are entered."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if node.__class__ in IMPORTS:
            fx.names.add_import(node)
            continue
        for name in blocks(node.__class__):
            stack.extend(touching(lines, getattr(node, name)))


def _walk(fx: PyFile, tree: ast.Module, module_scope: Scope, lines: Optional[list[int]]
          ) -> tuple[list[tuple[ast.Call, Scope]], list[tuple[ast.stmt, Scope]]]:
    """The calls and the statements that may set ``os.environ``, each with its scope, in the
    statements that touch ``lines``. The order does not matter: both are sorted by position,
    and a call is listed before the calls inside it (``f(a)(b)`` share a position)."""
    calls: list[tuple[ast.Call, Scope]] = []
    env_stmts: list[tuple[ast.stmt, Scope]] = []
    parent_body = fx.parent_body
    stack: list[tuple[ast.AST, Scope]] = [(tree, module_scope)]
    push = stack.append
    leaf = LEAF_TYPES
    Call, FuncDefs, Lambda, Stmts = ast.Call, FUNC_DEFS, ast.Lambda, STMTS
    while stack:
        node, scope = stack.pop()
        cls = node.__class__
        spec = CLASS_SPEC.get(cls)
        if spec is None:
            spec = class_spec(cls)
        body_fields, child_fields = spec
        if cls is Call:
            calls.append((node, scope))
        elif cls in FuncDefs:
            scope, outer = Scope(node, scope, parent_body), scope
            for name in child_fields:  # decorators, arguments, bases: the enclosing scope's
                v = getattr(node, name, None)
                for c in (v if v.__class__ is list else (v,)):
                    if c is not None and c.__class__ not in leaf:
                        push((c, outer))
            child_fields = ()
        elif cls is Lambda:
            push((node.body, Scope(node, scope, parent_body)))
            for c in (*node.args.defaults, *node.args.kw_defaults):  # evaluated where it stands
                if c is not None and c.__class__ not in leaf:
                    push((c, scope))
            continue
        elif cls in Stmts:
            _note_statement(fx, node, scope, env_stmts)
        for name in body_fields:
            body = getattr(node, name)
            if body.__class__ is list:
                for st in touching(lines, body):
                    parent_body[id(st)] = body
                    push((st, scope))
            elif body.__class__ not in leaf:  # IfExp
                push((body, scope))
        for name in child_fields:
            v = getattr(node, name, None)
            if v.__class__ is list:
                for c in v:
                    if c is not None and c.__class__ not in leaf:
                        push((c, scope))
            elif v is not None and v.__class__ not in leaf:
                push((v, scope))
    return calls, env_stmts


def _note_statement(fx: PyFile, st: ast.stmt, scope: Scope, env_stmts: list) -> None:
    """Assignments to a subscript and ``|=`` may set ``os.environ``; an expression statement
    holding a call is what ``os.environ.update(...)`` deletes."""
    if isinstance(st, (ast.Assign, ast.AnnAssign)):
        if st.value is None:
            return
        for t in (st.targets if isinstance(st, ast.Assign) else [st.target]):
            if isinstance(t, ast.Subscript):
                env_stmts.append((st, scope))
    elif isinstance(st, ast.AugAssign):
        if isinstance(st.op, ast.BitOr):
            env_stmts.append((st, scope))
    elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
        fx.expr_stmts[id(st.value)] = st


def _call(fx: PyFile, call: ast.Call, scope: Scope) -> None:
    """Hand a call to its reader: an entry class, a process call, or an environment call."""
    f = call.func
    if f.__class__ is ast.Attribute:
        if f.attr not in INTERESTING_LAST:
            return
        if f.attr in WRAPPER_METHODS:
            from . import wrappers
            wrappers.method_call(fx, call, f.attr, scope)
            return
        if f.attr in SHELL_METHODS:
            from . import wrappers
            wrappers.build_commands(fx, call)
    elif f.__class__ is ast.Name:
        if f.id not in INTERESTING_LAST and f.id not in fx.names.aliases:
            return
    else:
        return
    dotted = fx.names.dotted(f)
    if dotted is None:
        return
    entry = entry_of(dotted)
    if entry is not None:
        kwargs_launch(fx, call, entry, scope)
        return
    foreign = launcher_of_call(dotted)
    if foreign is not None:
        from .foreign import foreign_launch
        foreign_launch(fx, call, foreign, scope)
        return
    spec = PROC_CALLS.get(dotted)
    if spec is not None:
        from .processes import proc_launch
        proc_launch(fx, call, dotted, spec, scope)
        return
    if dotted in ENV_CALLS:
        from .environ import env_call
        env_call(fx, call, dotted)
        return
    from . import wrappers
    wrappers.call(fx, call, dotted, scope)
