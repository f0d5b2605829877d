"""Environment variables whose presence makes a release refuse to start, read from its source.

From 0.34.0, ``EngineArgs.create_engine_config`` calls ``current_platform.validate_environ`` on
every start. It walks ``os.environ`` and raises ``ValueError`` for

* a name in ``vllm/envs.py``'s ``removed_environment_variables`` (name -> migration hint): any
  value is refused (``VLLM_MARLIN_INPUT_DTYPE``);
* a name it compares itself (``if env == "X":``) whose block raises for some values
  (``if value != "1": raise``: ``VLLM_USE_V2_MODEL_RUNNER`` is refused unless it is ``1``, and
  ``1`` is accepted and ignored with a warning).

The result is the release file's ``env_refused`` table (absent where the release has none):

```
{"VLLM_MARLIN_INPUT_DTYPE": {"refused": "any",
                             "migration": {"options": [["--quantization", "humming"]],
                                           "env": ["VLLM_HUMMING_INPUT_QUANT_CONFIG"]}},
 "VLLM_USE_V2_MODEL_RUNNER": {"refused": "except", "values": ["1"], "ignored": ["1"]}}
```

``refused`` is ``"any"``, ``"except"`` (every value but ``values``) or ``"only"`` (just
``values``); ``ignored``: values that pass and change nothing (the block only logs for them).
``migration`` holds what the hint names, as facts, never its prose: option words the release
accepts (a backticked ``--option value``) and other environment variables the release reads.

Read with the standard library's ``ast`` (the source is never imported): only these shapes count,
and only where ``create_engine_config``'s module calls ``validate_environ``.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable, Optional

from . import eras
from .name_tables import top_level_assignments
from .tree import SourceTree

_VALIDATOR = eras.ENV_VALIDATOR
_PLATFORM_INTERFACE = eras.PLATFORM_INTERFACE
_REMOVED_TABLE = eras.REMOVED_ENV_TABLE


def _parse(tree: SourceTree, path: str) -> Optional[ast.Module]:
    data = tree.read(path)
    if data is None:
        return None
    try:
        return ast.parse(data.decode("utf-8", "replace"))
    except (SyntaxError, ValueError):
        return None


def _string(node: ast.AST) -> Optional[str]:
    """A string literal, implicit concatenations included (``("a " "b")``); None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _validator(module: ast.Module) -> Optional[ast.FunctionDef]:
    for node in ast.walk(module):
        if isinstance(node, ast.FunctionDef) and node.name == _VALIDATOR:
            return node
    return None


def _raises_only(body: list[ast.stmt]) -> bool:
    return len(body) == 1 and isinstance(body[0], ast.Raise)


def _compares(test: ast.AST, name: str) -> Optional[tuple[str, str]]:
    """``name == "X"`` / ``name != "X"``: (operator, "X")."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
            and test.left.id == name:
        right = _string(test.comparators[0])
        if right is not None and isinstance(test.ops[0], (ast.Eq, ast.NotEq)):
            return ("==" if isinstance(test.ops[0], ast.Eq) else "!="), right
    return None


def _loop_names(fn: ast.FunctionDef) -> Optional[tuple[str, str, list[ast.stmt]]]:
    """(name variable, value variable, loop body) of ``for env, value in os.environ.items():``."""
    for node in ast.walk(fn):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Tuple) and len(node.target.elts) == 2 \
                and all(isinstance(e, ast.Name) for e in node.target.elts) \
                and "environ" in ast.unparse(node.iter):
            a, b = node.target.elts
            return a.id, b.id, node.body  # type: ignore[union-attr]
    return None


def _named_blocks(body: list[ast.stmt], name_var: str, value_var: str) -> dict[str, dict[str, Any]]:
    """``if <name_var> == "X":`` blocks of the loop: which values of X they refuse."""
    out: dict[str, dict[str, Any]] = {}
    for stmt in body:
        if not isinstance(stmt, ast.If):
            continue
        cmp = _compares(stmt.test, name_var)
        if cmp is None or cmp[0] != "==" or not cmp[1].startswith("VLLM_"):
            continue
        var = cmp[1]
        if _raises_only(stmt.body):
            out[var] = {"refused": "any"}
            continue
        for inner in stmt.body:
            if not isinstance(inner, ast.If) or not _raises_only(inner.body):
                continue
            vcmp = _compares(inner.test, value_var)
            if vcmp is None:
                continue
            op, value = vcmp
            # the statements after the refusal in the block only log: the other values are ignored
            rest = [s for s in stmt.body if s is not inner]
            only_logs = all(isinstance(s, ast.Continue) or isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                            and "log" in ast.unparse(s.value.func) for s in rest)
            if op == "!=":
                out[var] = {"refused": "except", "values": [value]}
                if only_logs:
                    out[var]["ignored"] = [value]
            else:
                out[var] = {"refused": "only", "values": [value]}
            break
    return out


def _checks_removed_table(body: list[ast.stmt]) -> bool:
    """Whether the loop raises for a name found in ``removed_environment_variables``."""
    for stmt in body:
        if isinstance(stmt, ast.If) and _REMOVED_TABLE in ast.unparse(stmt.test) and _raises_only(stmt.body):
            return True
    return False


def _removed_table(envs: ast.Module) -> dict[str, str]:
    for target, value in top_level_assignments(envs):
        if target == _REMOVED_TABLE and isinstance(value, ast.Dict):
            out = {}
            for k, v in zip(value.keys, value.values):
                name, hint = _string(k) if k is not None else None, _string(v)
                if name is not None:
                    out[name] = hint or ""
            return out
    return {}


_BACKTICKED = re.compile(r"`([^`]+)`")
_ENV_NAME = re.compile(r"\bVLLM_[A-Z0-9_]+\b")


def migration(hint: str, option_strings: Iterable[str], env_names: Iterable[str], own: str) -> dict[str, list]:
    """What a removal hint names, kept as facts: option words (``--quantization humming``) whose
    option the release accepts, and variables the release reads (not the removed one)."""
    options = set(option_strings)
    env = set(env_names)
    out: dict[str, list] = {}
    words = []
    for m in _BACKTICKED.finditer(hint):
        parts = m.group(1).split()
        if parts and parts[0] in options and len(parts) <= 2:
            words.append(parts)
    if words:
        out["options"] = words
    names = sorted({n for n in _ENV_NAME.findall(hint) if n != own and n in env})
    if names:
        out["env"] = names
    return out


def env_refusals(tree: SourceTree, option_strings: Iterable[str], env_names: Iterable[str]) -> dict[str, dict]:
    """The release's ``env_refused`` table (module docstring); {} where start-up checks none."""
    engine = tree.read(eras.module_path(eras.ARG_UTILS)) or b""
    if f"{_VALIDATOR}(".encode() not in engine:
        return {}
    interface = _parse(tree, _PLATFORM_INTERFACE)
    fn = _validator(interface) if interface is not None else None
    loop = _loop_names(fn) if fn is not None else None
    if loop is None:
        return {}
    name_var, value_var, body = loop
    out = _named_blocks(body, name_var, value_var)
    if _checks_removed_table(body):
        envs = _parse(tree, eras.module_path(eras.ENVS))
        options = list(option_strings)
        names = list(env_names)
        for name, hint in (_removed_table(envs) if envs is not None else {}).items():
            entry: dict[str, Any] = {"refused": "any"}
            moved = migration(hint, options, names, name)
            if moved:
                entry["migration"] = moved
            out.setdefault(name, entry)
    return dict(sorted(out.items()))
