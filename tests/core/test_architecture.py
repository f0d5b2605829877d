"""The layer order of docs/architecture.md, checked against the import graph of ``vllm_lint``
(every import, function-local ones included): no import cycles, no import from a lower layer to a
higher one, the "never" rules of that page, and every module placed in a layer."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "vllm_lint"
DOC = ROOT / "docs" / "architecture.md"

# (importer, imported) pairs the page forbids whatever the layers say
NEVER = [("vllm_lint.frontends", "vllm_lint.rules"), ("vllm_lint.frontends", "vllm_lint.surface"),
         ("vllm_lint.frontends", "vllm_lint.argv"), ("vllm_lint.frontends", "vllm_lint.knowledge"),
         ("vllm_lint.pipeline.fix", "vllm_lint.frontends"), ("vllm_lint.pipeline.fix", "vllm_lint.pipeline.engine")]
# the commands share cli.common, never the click application itself (cli.program falls back to it)
NEVER += [(f"vllm_lint.cli.{m}", "vllm_lint.cli.app") for m in ("common", "lint_command", "audit_command", "db_command",
                                                                "flags_command", "server_command", "site_command",
                                                                "upgrade_command")]
NEVER += [("vllm_lint.site", "vllm_lint.cli")]
# the audit package's own order: model, comparers, conductor, rendering (docs/architecture.md)
_AUDIT = "vllm_lint.pipeline.audit"
NEVER += [(f"{_AUDIT}.model", "vllm_lint")]
NEVER += [(f"{_AUDIT}.{comparer}", target) for comparer in ("releases", "breaks", "drift", "semantic")
          for target in ("vllm_lint.pipeline.engine", f"{_AUDIT}.auditor", f"{_AUDIT}.render")]
NEVER += [(f"{_AUDIT}.render", target) for target in ("vllm_lint.pipeline.engine", "vllm_lint.rules", "vllm_lint.surface",
                                                      "vllm_lint.argv", f"{_AUDIT}.auditor", f"{_AUDIT}.breaks",
                                                      f"{_AUDIT}.drift", f"{_AUDIT}.semantic", f"{_AUDIT}.releases")]

# the package itself (layer 0) answers ``vllm_lint.lint``, ``.fix``, ``.FixResult`` and ``.Diagnostic``
# by loading their modules by name at first use (docs/architecture.md, "Layers"): the one arrow up
FACADE = frozenset({"vllm_lint.api", "vllm_lint.rules.base"})


@functools.lru_cache(maxsize=None)
def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for p in sorted(PACKAGE.rglob("*.py")):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        out[".".join(parts)] = (p, is_pkg)
    return out


def _tree(path: Path) -> ast.AST:
    return ast.parse(path.read_bytes())


def _dynamic_name(node: ast.AST, name: str, is_pkg: bool):
    """The module name a string argument of ``importlib.import_module``/``__import__`` spells, with
    ``__name__`` and ``__package__`` read as the importer's; an f-string's part that is not one of
    them ends the name there (the constant prefix up to its last dot: a module of that package).
    None when nothing constant is left."""
    package = name if is_pkg else name.rpartition(".")[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if not isinstance(node, ast.JoinedStr):
        return None
    text = ""
    for part in node.values:
        if isinstance(part, ast.Constant):
            text += str(part.value)
        elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name) \
                and part.value.id in ("__name__", "__package__"):
            text += name if part.value.id == "__name__" else package
        else:
            return text.rpartition(".")[0] or None
    return text


def _dynamic_imports(tree: ast.AST, name: str, is_pkg: bool) -> list[str]:
    """Modules loaded by name: ``importlib.import_module(s[, package])``, ``import_module(s)``,
    ``__import__(s)``, where ``s`` is a string (or an f-string over ``__name__``/``__package__``).
    A relative name is resolved against the package argument when that is ``__package__`` or
    ``__name__`` of a package."""
    out = []
    package = name if is_pkg else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if called not in ("import_module", "__import__"):
            continue
        target = _dynamic_name(node.args[0], name, is_pkg)
        if not target:
            continue
        if target.startswith("."):
            level = len(target) - len(target.lstrip("."))
            base = package.split(".")
            target = ".".join(base[: len(base) - (level - 1)] + ([target.lstrip(".")] if target.lstrip(".") else []))
        out.append(target)
    return out


def _imports_of(tree: ast.AST, name: str, is_pkg: bool, mods) -> frozenset[str]:
    """The modules of ``mods`` that the module ``name`` imports: import statements anywhere in it,
    and modules it loads by name (``importlib``, ``__import__``), which tie the same knot."""
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = ".".join(base[: len(base) - (node.level - 1)] + ([node.module] if node.module else [])) \
                if node.level else (node.module or "")
            targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            found.add(t)
    found.update(_dynamic_imports(tree, name, is_pkg))
    out = set()
    for t in found:
        while t and t not in mods:
            t = t.rpartition(".")[0]
        if t and t != name and not name.startswith(t + "."):
            out.add(t)
    return frozenset(out)


@functools.lru_cache(maxsize=None)
def _graph() -> dict[str, frozenset[str]]:
    """The import graph, built once for the tests of this file (each parse of the package costs
    about 1.8 s of CPU)."""
    mods = _modules()
    return {name: _imports_of(_tree(path), name, is_pkg, mods) for name, (path, is_pkg) in mods.items()}


def _layers() -> dict[str, tuple[int, str]]:
    """'vllm_lint.x' or 'vllm_lint.pkg/' -> (layer number, layer name), from the page's table."""
    out = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*(\d+)\.\s*([^|]+?)\s*\|([^|]*)\|", line)
        if not m:
            continue
        for entry in re.findall(r"`([^`]+)`", m.group(3)):
            out["vllm_lint" + ("" if entry == "__init__" else "." + entry)] = (int(m.group(1)), m.group(2))
    return out


def _layer_of(module: str, layers: dict[str, tuple[int, str]]):
    if module in layers:
        return layers[module]
    parts = module.split(".")
    for i in range(len(parts), 1, -1):
        key = ".".join(parts[:i]) + "/"
        if key in layers:
            return layers[key]
    return None


def test_the_page_places_every_module():
    layers = _layers()
    assert len(layers) > 20, "the layer table of docs/architecture.md was not found"
    missing = [m for m in _modules() if _layer_of(m, layers) is None]
    assert not missing, f"modules in no layer of docs/architecture.md: {missing}"


def _cycles(graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return cycles


def test_no_import_cycles():
    assert _cycles(_graph()) == []


def test_a_loop_through_importlib_would_be_seen():
    """A module loaded by name is an import: the loop the callable ``vllm_lint.fix`` module once made
    (``pipeline.fix`` reaching ``api`` through ``importlib``) is a cycle and an upward arrow."""
    mods = {"vllm_lint.api": None, "vllm_lint.pipeline.engine": None, "vllm_lint.pipeline.fix": None,
            "vllm_lint.pipeline": None, "vllm_lint.report": None, "vllm_lint.report.text": None}
    sources = {
        ("vllm_lint.api", False): "from .pipeline.engine import Linter\n",
        ("vllm_lint.pipeline.engine", False): "from . import fix\n",
        ("vllm_lint.pipeline.fix", False): "def f():\n    import importlib\n"
                                           "    return importlib.import_module('vllm_lint.api').fix\n",
    }
    graph = {name: _imports_of(ast.parse(src), name, is_pkg, mods) for (name, is_pkg), src in sources.items()}
    assert graph["vllm_lint.pipeline.fix"] == {"vllm_lint.api"}
    assert _cycles(graph) == [["vllm_lint.api", "vllm_lint.pipeline.engine", "vllm_lint.pipeline.fix"]]
    assert _upward(graph, _layers()) == ["vllm_lint.pipeline.fix (pipeline parts) imports vllm_lint.api (entry)"]
    # the other spellings of a load by name
    for src in ("__import__('vllm_lint.api')", "from importlib import import_module\nimport_module(f'{__package__}.engine')",
                "import importlib\nimportlib.import_module('..api', __package__)",
                "import importlib\nimportlib.import_module(f'vllm_lint.report.{x}')"):
        assert _imports_of(ast.parse(src), "vllm_lint.pipeline.fix", False, mods), src
    assert _imports_of(ast.parse("import importlib\nimportlib.import_module(f'{__name__}.{x}')"),
                       "vllm_lint.report", True, mods) == frozenset()  # a module of its own package


def _upward(graph: dict[str, set[str]], layers: dict[str, tuple[int, str]]) -> list[str]:
    out = []
    for importer, imported in sorted(graph.items()):
        a = _layer_of(importer, layers)
        for target in sorted(imported):
            b = _layer_of(target, layers)
            if a is not None and b is not None and b[0] > a[0]:
                out.append(f"{importer} ({a[1]}) imports {target} ({b[1]})")
    return out


def test_no_import_runs_up_the_layers():
    graph = dict(_graph())
    assert graph["vllm_lint"] <= FACADE, "the package loads by name only the Python API's names"
    graph["vllm_lint"] = frozenset()
    assert _upward(graph, _layers()) == []


def test_the_never_rules_hold():
    broken = []
    for importer, imported in sorted(_graph().items()):
        for target in imported:
            for a, b in NEVER:
                if (importer == a or importer.startswith(a + ".")) and (target == b or target.startswith(b + ".")):
                    broken.append(f"{importer} imports {target}")
    assert broken == []


def test_an_upward_import_would_be_seen():
    layers = _layers()
    assert "vllm_lint.launch" in _graph()["vllm_lint.pipeline.engine"]  # the graph sees imports
    assert _upward({"vllm_lint.pipeline.engine": {"vllm_lint.launch"}}, layers) == []
    assert _upward({"vllm_lint.launch": {"vllm_lint.pipeline.engine"}, "vllm_lint.rules.vl101_removed_option":
                    {"vllm_lint.report.text"}}, layers) == [
        "vllm_lint.launch (model) imports vllm_lint.pipeline.engine (pipeline)",
        "vllm_lint.rules.vl101_removed_option (rules) imports vllm_lint.report.text (report)"]


# -- no format name outside the format units (issue 14): the pipeline, the rules, the reports and
# the entry points ask a format's properties (frontends.base.Format), never compare its name.
# A comparison is about a file's format when an operand that is not a string literal names one:
# its identifier (a variable, an attribute, a called function or a subscript key) says `fmt`,
# `format` or `language`. An output format (`--format json`, `--output-format sarif`) shares
# words with the format names, so it is spelled `output_format` wherever it is compared.
_FORMAT_WORD = re.compile(r"(?:^|_)(?:fmt|format|formats|language|lang)(?:_|$)|^format_by_")
_OUTPUT_FORMAT = "output_format"


def _identifier(node: ast.AST):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return _identifier(node.func)
    if isinstance(node, ast.Subscript):
        key = node.slice
        return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else _identifier(node.value)
    return None


def _strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for e in node.elts for s in _strings(e)]
    return []


def _names_a_format(node: ast.AST) -> bool:
    ident = _identifier(node)
    return isinstance(ident, str) and ident != _OUTPUT_FORMAT and bool(_FORMAT_WORD.search(ident.lower()))


def format_name_comparisons(source, names) -> list[tuple[int, str]]:
    """(line, source) of each comparison in ``source`` (text or a parsed module) of a file-format
    operand with a format name."""
    names = set(names)
    out = []
    for node in ast.walk(ast.parse(source) if isinstance(source, str) else source):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            literal = [o for o in operands if set(_strings(o)) & names]
            if literal and any(_names_a_format(o) for o in operands if o not in literal):
                out.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Match) and _names_a_format(node.subject):
            for case in node.cases:
                for pat in ast.walk(case.pattern):
                    if isinstance(pat, ast.MatchValue) and set(_strings(pat.value)) & names:
                        out.append((pat.lineno, ast.unparse(node.subject) + " matched with " + ast.unparse(pat.value)))
    return sorted(out)


def test_no_format_name_outside_the_format_units():
    from vllm_lint.frontends.base import names

    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if (PACKAGE / "frontends") in path.parents:
            continue
        for line, text in format_name_comparisons(_tree(path), names()):
            found.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    assert found == [], "compare a format's property (frontends.base.Format), not its name"


def test_a_format_name_comparison_would_be_seen():
    names = ("python", "yaml", "json", "markdown")
    seen = format_name_comparisons(
        'a = analysis.fmt == "python"\n'
        'b = file_format(ctx) not in ("shell", "yaml")\n'
        'c = settings["format"] != "markdown"\n'
        'match fmt:\n    case "json":\n        pass\n', names)
    assert [line for line, _ in seen] == [1, 2, 3, 5]
    # an output format's vocabulary and other meanings of the same words are not format names
    assert format_name_comparisons('a = output_format == "json"\nb = opt.kind == "json"\n'
                                   'c = o.output_format not in ("text", "json")\nd = fmt == "toml"\n', names) == []


def test_only_the_registry_of_formats_is_imported_outside_them():
    broken = sorted(f"{a} imports {b}" for a, bs in _graph().items() if not a.startswith("vllm_lint.frontends")
                    for b in bs if b.startswith("vllm_lint.frontends.") and b != "vllm_lint.frontends.base")
    assert broken == []


def _context_uses(path: Path):
    """(line, key) for each use of a ``.context`` dictionary in the module at ``path`` (other than
    ``self.context``): ``x.context[key]``, ``x.context.get/setdefault/pop(key)``, ``key in
    x.context``; key None when it is not a string constant."""
    def is_context(node) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr == "context"
                and not (isinstance(node.value, ast.Name) and node.value.id == "self"))

    for node in ast.walk(_tree(path)):
        key = ...
        if isinstance(node, ast.Subscript) and is_context(node.value):
            key = node.slice
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("get", "setdefault", "pop") and is_context(node.func.value) and node.args):
            key = node.args[0]
        elif (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn))
              and is_context(node.comparators[0])):
            key = node.left
        if key is not ...:
            yield node.lineno, key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None


def test_the_typed_fields_of_a_launch_are_not_spelled_as_context_keys():
    """What a launch's surroundings say (``Launch.image``, ``.model``, ``.partial_layout``, ...) is a
    typed field, read outside the front-ends; written as ``launch.context["model"]`` it would reach
    no reader."""
    from vllm_lint.launch import Launch

    typed = set(Launch.TYPED_CONTEXT)
    found = [f"{path.relative_to(ROOT)}:{line}: context[{key!r}]" for path in sorted(PACKAGE.rglob("*.py"))
             for line, key in _context_uses(path) if key in typed]
    assert found == [], "use the Launch field of that name"


def test_a_launchs_context_is_read_only_by_the_front_ends():
    """``Launch.context`` holds a front-end's own notes; what another layer needs is a typed field."""
    found = [f"{path.relative_to(ROOT)}:{line}: context[{key!r}]" for path in sorted(PACKAGE.rglob("*.py"))
             if not path.is_relative_to(PACKAGE / "frontends") for line, key in _context_uses(path)]
    assert found == [], "make it a typed field of Launch (Launch.TYPED_CONTEXT)"


def test_the_context_keys_the_front_ends_use_are_documented():
    """Each key a front-end spells on a launch's ``context`` is listed, with what it is for, in
    ``Launch``'s docstring."""
    from vllm_lint.launch import Launch

    doc = Launch.__doc__ or ""
    found = [f"{path.relative_to(ROOT)}:{line}: context[{key!r}]" for path in sorted((PACKAGE / "frontends").rglob("*.py"))
             for line, key in _context_uses(path) if key is None or f"``{key}``" not in doc]
    assert found == [], "say in Launch's docstring what the key is for (or remove it if nothing reads it)"
