"""The ``python -m`` entrypoints a release deprecates, read from its source.

From 0.29.0 the ``__main__`` block of ``vllm/entrypoints/openai/api_server.py`` warns with a
``DeprecationWarning`` before it starts the server (the module still runs; ``vllm serve`` is the
command vLLM points to). The release file records it in ``era.deprecated_entries`` (absent where
the release deprecates none), as the launch entries the front-ends name:

```
"era": {..., "deprecated_entries": ["openai.api_server"]}
```

Read with the standard library's ``ast`` (the source is never imported): a module counts when
its top-level ``if __name__ == "__main__":`` block calls ``warnings.warn`` (or ``warn``) with
``DeprecationWarning`` before anything else runs the server.
"""

from __future__ import annotations

import ast
from typing import Optional

from .eras import MODULE_ENTRIES
from .tree import SourceTree


def deprecated_entries(tree: SourceTree) -> list[str]:
    """The entries of :data:`MODULE_ENTRIES` whose ``__main__`` block warns that it is deprecated."""
    out = []
    for path, entry in MODULE_ENTRIES.items():
        data = tree.read(path)
        if data is None:
            continue
        try:
            module = ast.parse(data)
        except (SyntaxError, ValueError):
            continue
        block = _main_block(module)
        if block is not None and any(_warns_deprecated(stmt) for stmt in block):
            out.append(entry)
    return sorted(out)


def _main_block(module: ast.Module) -> Optional[list[ast.stmt]]:
    for stmt in module.body:
        if isinstance(stmt, ast.If) and _is_main_test(stmt.test):
            return stmt.body
    return None


def _is_main_test(test: ast.expr) -> bool:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, *test.comparators]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    consts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(consts) == 1


def _warns_deprecated(stmt: ast.stmt) -> bool:
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    call = stmt.value
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if name != "warn":
        return False
    categories = list(call.args[1:2]) + [k.value for k in call.keywords if k.arg == "category"]
    return any(isinstance(c, ast.Name) and c.id == "DeprecationWarning" for c in categories)
