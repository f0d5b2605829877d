"""Which statements the walk enters, and how it descends into a node (issue 7's pruning).

On the benchmark corpus's Python files (stdlib modules with a launch appended), walking every
node, recording every binding and resolving every call cost half as much again as ``ast.parse``,
for code that almost never holds a launch. So the walk enters a statement only if one of its lines
holds a word that can make something in it matter (:func:`hit_lines`), and a scope's bindings
are collected when a launch looks a name up (:class:`~.scope.Scope`). The words: a callee we
look at ends in ``.name`` (``subprocess.run``, ``os.environ.update``) or is a bare entry class
or a name imported as one of those (``from subprocess import Popen as P``); an environment
statement names ``.environ`` or such an alias. Lines with non-ASCII bytes always count (an
identifier is NFKC-normalised, so other characters may spell ``system``). Imports are collected
first, by the same rule on the word ``import``. Statement line ranges come from the tokenizer
(decorators are before ``def``), and so do the line numbers here (``Source.line_starts``)."""

from __future__ import annotations

import ast
import bisect
import functools
import re

from ...record import lazy_re
from .callees import INTERESTING_LAST
from .source import Source

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

# traversal tables: node classes that never hold a call or statement, and per class its statement
# blocks and the other fields worth descending into (ast.iter_child_nodes costs ~3x more, mostly on
# ctx/op leaves)
LEAF_TYPES = frozenset(
    [ast.Name, ast.Constant, ast.alias, ast.Pass, ast.Break, ast.Continue, ast.Global, ast.Nonlocal]
    + [c for base in (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)
       for c in base.__subclasses__()]
)
_NON_CHILD_FIELDS = frozenset(
    ["ctx", "op", "ops", "id", "attr", "name", "arg", "kind", "type_comment", "level", "module",
     "names", "conversion", "is_async", "asname"]
)
_BODY_FIELDS = ("body", "orelse", "finalbody", "handlers")  # IfExp's and Lambda's are expressions
CLASS_SPEC: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}
# statement lists only, "cases" included (match_case.body holds statements): the statement walks
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_BLOCKS: dict[type, tuple[str, ...]] = {}
FUNC_DEFS = frozenset([ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef])
IMPORTS = frozenset([ast.Import, ast.ImportFrom])
STMTS = frozenset([ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr])


def class_spec(cls: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(body fields, other child fields)`` of a node class."""
    fields = getattr(cls, "_fields", ())
    spec = (tuple(f for f in fields if f in _BODY_FIELDS),
            tuple(f for f in fields if f not in _NON_CHILD_FIELDS and f not in _BODY_FIELDS))
    CLASS_SPEC[cls] = spec
    return spec


def blocks(cls: type) -> tuple[str, ...]:
    """The fields of a statement, handler, match case or module that hold statements, in order."""
    found = _BLOCKS.get(cls)
    if found is None:
        found = _BLOCKS[cls] = tuple(f for f in getattr(cls, "_fields", ()) if f in _BLOCK_FIELDS)
    return found


def _words_re(words: list[str]) -> bytes:
    """A regular expression for exactly ``words``, factored on common prefixes: ``re`` tries the
    branches of an alternation one by one, and a flat one of 37 words cost ~60% more here."""
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if not alts:
            return ""
        if len(alts) > 1:
            body = "(?:" + "|".join(alts) + ")"
        elif len(alts[0]) > 1 and "" in node:
            body = "(?:" + alts[0] + ")"
        else:
            body = alts[0]
        return body + "?" if "" in node else body  # "": a word ends here

    return emit(trie).encode()


@functools.lru_cache(maxsize=None)
def _attr_words() -> bytes:
    """The names a look at ends in, as one expression (built at first use, not at import)."""
    return _words_re(sorted(INTERESTING_LAST | {"environ"}))


# the dot, then whitespace, backslash continuations or (inside brackets) comments, then the name.
# A dot followed by a comment is rare in code but common in prose (``end.\n# Next``): there the
# gap is skipped (_GAP_RE) and the name after it checked, once for all the dots of one comment.
ATTR_RE = lazy_re(lambda: rb"\.[\s\\]*(?:(?:" + _attr_words() + rb")\b|#)")
_GAP_RE = lazy_re(rb"(?:[\s\\]|#[^\r\n]*)*")
ATTR_NAME_RE = lazy_re(lambda: rb"(?:" + _attr_words() + rb")\b")


def touching(lines: Optional[list[int]], body: list) -> list:
    """The statements (or handlers, match cases) of a block whose lines hold one of ``lines``
    (sorted; None: all lines)."""
    if lines is None:
        return body
    out = []
    i, n = 0, len(lines)
    for st in body:
        if st.__class__ is ast.match_case:  # no position of its own
            out.append(st)
            continue
        lo = st.lineno
        if st.__class__ in FUNC_DEFS and st.decorator_list:  # decorators come before ``def``
            lo = st.decorator_list[0].lineno
        while i < n and lines[i] < lo:  # a block's statements come in order (lo never decreases)
            i += 1
        if i == n:
            break
        if lines[i] <= st.end_lineno:
            out.append(st)
    return out


def hit_lines(src: Source, words: list[bytes], attributes: bool = False) -> Optional[list[int]]:
    """Sorted numbers of the lines holding one of ``words`` (anywhere, even inside a longer
    name or a string: a line too many is only walked), with ``attributes`` the lines of a
    ``.name`` of :data:`ATTR_RE`, and every line with a non-ASCII byte. None (every line)
    when the file declares another encoding than UTF-8."""
    if not src.utf8:
        return None
    data = src.data
    offsets = []
    for w in words:
        i = data.find(w)
        while i >= 0:
            offsets.append(i)
            i = data.find(w, i + len(w))
    if attributes:
        gap_end, named = -1, False
        for m in ATTR_RE.finditer(data):
            if data[m.end() - 1] == 0x23:  # '#': does a name follow the comments?
                if m.start() >= gap_end:  # (a later dot inside the same gap has the same answer)
                    gap_end = _GAP_RE.match(data, m.start() + 1).end()
                    named = ATTR_NAME_RE.match(data, gap_end) is not None
                if not named:
                    continue
            offsets.append(m.start())
    offsets.extend(src.non_ascii)
    starts = src.line_starts
    return sorted({bisect.bisect_right(starts, p) for p in offsets})
