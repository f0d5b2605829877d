"""What differs between vLLM releases is written in one module, ``vllm_lint/scrape/eras.py``.

The other scrapers read its rows; none of them names a release, compares a version with a literal
one or names a place in vLLM's tree itself (``docs/architecture.md``, ``flag_db/README.md``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from vllm_lint.scrape import eras

SCRAPE = Path(eras.__file__).parent

#: a release number: 0.4.0, 0.10.1.1, 0.6.6.post1, 0.35.0.dev0, 0.9
_RELEASE = re.compile(r"^v?\d+\.\d+(?:\.\d+)*(?:[.-]?(?:post|dev|rc|a|b)\d*)?$")
#: a module or file of vLLM's tree: vllm.engine.arg_utils, vllm/envs.py, vllm/config/
_VLLM_PLACE = re.compile(r"^vllm[./][A-Za-z_]")


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (of the module, a class, a function)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.add(id(body[0].value))
    return out


def _int_tuple(node: ast.AST) -> bool:
    return isinstance(node, ast.Tuple) and len(node.elts) >= 2 and all(
        isinstance(e, ast.Constant) and type(e.value) is int for e in node.elts)


def _python_version(node: ast.AST) -> bool:
    """``sys.version_info``: the interpreter's version, not vLLM's."""
    return isinstance(node, ast.Attribute) and node.attr == "version_info"


def era_violations(source: str, name: str = "<module>") -> list[str]:
    """Where ``source`` holds release knowledge that belongs in eras.py: a release number, a
    comparison with a version tuple, a module or path of vLLM's tree."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if _RELEASE.match(node.value):
                out.append(f"{name}:{node.lineno}: release number {node.value!r}")
            elif _VLLM_PLACE.match(node.value):
                out.append(f"{name}:{node.lineno}: place in vLLM's tree {node.value!r}")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            ordered = not all(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)  # `n in (2, 3)`: a set
            if ordered and any(_int_tuple(s) for s in sides) and not any(_python_version(s) for s in sides):
                out.append(f"{name}:{node.lineno}: comparison with a version tuple")
    return out


def test_no_scraper_holds_release_knowledge_outside_eras():
    found = []
    for path in sorted(SCRAPE.glob("*.py")):
        if path.name == "eras.py":
            continue
        found += era_violations(path.read_text(encoding="utf-8"), f"scrape/{path.name}")
    assert not found, "release knowledge outside vllm_lint/scrape/eras.py (add a row there):\n" + "\n".join(found)


@pytest.mark.parametrize("snippet", [
    "if version >= (0, 10):\n    path = x\n",
    "if Version(v) < Version('0.9.2'):\n    pass\n",
    "NEWEST = '0.34.0'\n",
    "mod = project.module('vllm.entrypoints.cli.serve')\n",
    "text = tree.read('vllm/engine/arg_utils.py')\n",
    "ok = path.startswith(f'vllm/config/{x}')\n",
])
def test_the_check_sees_release_knowledge(snippet):
    assert era_violations(snippet)


@pytest.mark.parametrize("snippet", [
    '"""Read from 0.9.2 on: vllm/utils/__init__.py."""\n',
    "if sys.version_info >= (3, 11):\n    pass\n",
    "ok = path.startswith('vllm/') and pkg == 'vllm'\n",
    "newer = Version(v) > newest\n",
    "if len(e.args) in (2, 3):\n    pass\n",
    "# 0.8.5-0.9.x: comments say where a fact was seen\nx = 1\n",
])
def test_the_check_leaves_generic_code(snippet):
    assert era_violations(snippet) == []


_RANGE = re.compile(r"^(?:\d+\.\d+\.(?:\d+|x)\+|-\d+\.\d+\.(?:\d+|x)|\d+\.\d+\.(?:\d+|x)-\d+\.\d+\.(?:\d+|x))$")


def test_rows_say_which_releases():
    assert [e.builds for e in eras.SERVE_ENTRIES] == ["subparser_init", "main", "parse_args"]
    markers = [v for v in vars(eras).values() if isinstance(v, eras.Marker)]
    assert len(markers) >= 10
    for row in [*eras.SERVE_ENTRIES, *markers]:
        assert _RANGE.match(row.releases), row
    for module in (eras.ARG_UTILS, eras.ENVS, eras.LLM, eras.OPENAI_API_SERVER, *eras.CONFIG_MODULES,
                   *(e.module for e in eras.SERVE_ENTRIES)):
        assert eras.module_path(module).startswith("vllm/") and eras.module_path(module).endswith(".py")
    assert eras.SERVE_SUBCOMMAND_MODULES == ("vllm.entrypoints.cli.serve", "vllm.scripts")


def test_markers_and_human_int_fields():
    assert eras.KWARGS_NONE_CHOICE.found('kwargs[name]["choices"].append(None)')
    assert not eras.KWARGS_NONE_CHOICE.found('kwargs[name]["choices"].append("None")')
    assert not eras.KVS_FALLBACK.found(None) and not eras.KVS_FALLBACK.found("")
    # later releases: a literal collection holding max_num_batched_tokens names the fields
    later = 'elif name in {"max_num_batched_tokens", "kv_cache_memory_bytes"}:\n    human_readable_int'
    assert eras.human_int_fields(later) == {"max_num_batched_tokens", "kv_cache_memory_bytes"}
    # earlier: one `name == "x"` per field, max_model_len (human_readable_int_or_auto) left out
    earlier = ('if name == "max_model_len": human_readable_int_or_auto\n'
               'elif name == "max_num_seqs": human_readable_int')
    assert eras.human_int_fields(earlier) == {"max_num_seqs"}
    assert eras.human_int_fields("type=int") == set()
    # 0.9.0: a membership test whose next line sets the type (max_model_len alone)
    ninety = 'if name in {"max_model_len"}:\n                kwargs[name]["type"] = human_readable_int\n'
    assert eras.human_int_fields(ninety) == {"max_model_len"}
    auto = 'if name in {"max_model_len"}:\n    kwargs[name]["type"] = human_readable_int_or_auto\n'
    assert eras.human_int_fields(auto) == set()


def test_a_moved_serve_module_is_one_row(monkeypatch):
    """A release that moves the serve sub-command is read once SERVE_ENTRIES has a row for it."""
    from test_extract_eras import SOURCE, load_tree

    from vllm_lint.scrape.extract import ExtractionError, extract_release
    from vllm_lint.scrape.tree import DictTree

    tree = load_tree("era_0_12")
    before = extract_release(tree, "0.0.0", SOURCE)
    files = {p: tree.read(p) for p in tree.paths()}
    files["vllm/cli/serve.py"] = files.pop("vllm/entrypoints/cli/serve.py")
    moved = DictTree(files)
    with pytest.raises(ExtractionError, match="no serve entry point"):
        extract_release(moved, "0.0.0", SOURCE)
    monkeypatch.setattr(eras, "SERVE_ENTRIES",
                        (eras.ServeEntry("0.99.0+", "vllm.cli.serve", "subparser_init"), *eras.SERVE_ENTRIES))
    after = extract_release(moved, "0.0.0", SOURCE)
    assert after["era"]["entry"] == "vllm/cli/serve.py"
    assert after["options"] == before["options"] and after["positionals"] == before["positionals"]
