"""Commands and code shown in docstrings, other string statements and comments, read (never run)
with exact positions.

"Start the server with: ``vllm serve m --runner pooling``": lines that start with a vLLM command
(after an optional ``$`` prompt) with their backslash continuations, and inline backquoted
commands with an argument, read as shell through the string's embedding, so findings point at
the word and fixes edit the docstring where its bytes spell the value 1:1 (a raw docstring; an
escaped ``\\\\`` has no 1:1 bytes, so no fix is offered there). Placeholders (``<model>``,
``[options]``, ``...``) are opaque words (:mod:`~vllm_lint.frontends.doc_commands`). Markdown
fences in a docstring go to the Markdown front-end, ``llm = LLM(...)`` statements are read as
Python. Comments that show a command line (``# vllm serve m \\``) are read the same way."""

from __future__ import annotations

import ast
from collections import deque

from ...launch import Extraction, ParseError, Span
from ...record import lazy_re
from ..embedding import Embedding, rebase
from .literals import StrInfo, decode_literal, embedding_of, placeholder
from .state import PyFile

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Callable, Optional

NEEDLES = lazy_re(rb"vllm serve|vllm\.entrypoints|dynamo\.vllm")
_DOC_CALL = lazy_re(r"(?m)^[ \t]*(?:\w+[ \t]*=[ \t]*)?(?:LLM|EngineArgs|AsyncEngineArgs)\(")
_COMMENT_TEXT = lazy_re(rb"(?m)^[ \t]*#[ \t]?([^\r\n]*)")

if TYPE_CHECKING:
    Extract = Callable[[bytes, str], Extraction]


def worth_reading(data: bytes) -> bool:
    """Whether the file's strings or comments may show a command or an entry-class call."""
    return bool(NEEDLES.search(data)) or (b"LLM(" in data and b'"""' in data)


def documented_commands(fx: PyFile, tree: ast.Module, extract: Extract) -> None:
    """Command lines shown in docstrings and other string statements, and in comments outside
    them (:func:`~vllm_lint.frontends.doc_commands.command_text`); code shown in docstrings is
    read with ``extract`` (this front-end's)."""
    from ..doc_commands import COMMAND, command_text

    src = fx.src
    strings: list[Span] = []
    for node in _statements(tree):
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)):
            continue
        strings.append(src.span(node.value))
        value = node.value.value
        if not (COMMAND.search(value) or "```" in value or _DOC_CALL.search(value)):
            continue
        info = decode_literal(src, src.span(node.value), placeholder)
        if info is None or info.value != value:
            continue
        if "```" in value or _DOC_CALL.search(value):
            _documented_code(fx, info, extract)
        shown = command_text(info.value)
        if shown is not None and "```" not in value:
            script = shown.encode("utf-8")
            _read_shell(fx, shown, embedding_of(StrInfo(shown, info.char_spans, [], None), script, src.utf8))
    _commented_commands(fx, strings)


_HOLDS_STATEMENTS = (ast.stmt, ast.excepthandler, ast.match_case)


def _statements(tree: ast.Module):
    """The statements of ``tree`` (and the handlers and match cases that hold some) in
    ``ast.walk``'s order: a string statement is a statement, and no expression holds one, so the
    walk does not descend into expressions (most of a module's nodes)."""
    todo = deque([tree])
    while todo:
        node = todo.popleft()
        todo.extend(c for c in ast.iter_child_nodes(node) if isinstance(c, _HOLDS_STATEMENTS))
        yield node


def _commented_commands(fx: PyFile, strings: list[Span]) -> None:
    """Comments that show a command line (``# vllm serve m \\``), outside the ``strings``."""
    from ..doc_commands import command_text

    data = fx.data
    if b"#" not in data or not NEEDLES.search(data):
        return
    text = bytearray(b" " * len(data))
    for m in _COMMENT_TEXT.finditer(data):
        if any(sp.start <= m.start() < sp.end for sp in strings):
            continue
        text[m.start(1):m.end(1)] = m.group(1)
    for i in _find_all(data, b"\n"):
        text[i] = 10
    shown = command_text(text.decode("latin-1"))
    if shown is not None:
        _read_shell(fx, shown, None, utf8=False)  # (the comments' text is the file's, 1:1)


def _read_shell(fx: PyFile, shown: str, emb: Optional[Embedding], utf8: bool = True) -> None:
    """Read ``shown`` as a shell script (placeholders filled as opaque words); its launches are
    documented ones."""
    from ..doc_commands import fill, mark
    from ..shell import extract_script  # noqa: PLC0415

    script = shown.encode("utf-8" if utf8 else "latin-1")
    filled, regions = fill(script)
    try:
        sub = extract_script(filled, fx.path, emb)
    except ParseError:
        return
    if regions:
        mark(sub, regions, emb)
    fx.result.launches.extend(sub.launches)


def _documented_code(fx: PyFile, info: StrInfo, extract: Extract) -> None:
    """Code shown in a docstring: Markdown fenced blocks (read by the Markdown front-end), or
    else ``llm = LLM(...)`` statements (read as Python), through the string's embedding."""
    from ..base import get  # noqa: PLC0415  (the registry: Markdown reads Python blocks)

    markdown = get("markdown").module

    value = info.value
    script = value.encode("utf-8")
    emb = embedding_of(info, script, fx.src.utf8)
    if "```" in value:
        try:
            rebase(markdown.extract(script, fx.path), emb, fx.result)
        except ParseError:
            pass
        return
    snippet = _call_statements(value)
    if snippet is None:
        return
    code, indent = snippet
    prefix = b"if True:\n" if indent else b""
    try:
        sub = extract(prefix + code.encode("utf-8"), fx.path)
    except ParseError:
        return
    rebase(sub, emb.prefixed(prefix), fx.result)


def _call_statements(value: str) -> Optional[tuple[str, int]]:
    """``value`` with only its entry-class call statements kept (every other char a space, the
    line ends kept, so offsets stay), and their indentation; None when there is none, or when
    they stand at two indentations (no snippet to parse)."""
    kept = [" " if ch != "\n" else ch for ch in value]
    pos = 0
    depth = 0
    indent = None
    for line in value.split("\n"):
        start = depth == 0 and _DOC_CALL.match(line)
        if start or depth > 0:
            if start:
                ind = len(line) - len(line.lstrip())
                if indent not in (None, ind):
                    return None
                indent = ind
            kept[pos:pos + len(line)] = line
            depth = max(0, depth + line.count("(") + line.count("[") + line.count("{")
                        - line.count(")") - line.count("]") - line.count("}"))
        pos += len(line) + 1
    if indent is None:
        return None
    return "".join(kept), indent


def _find_all(data: bytes, needle: bytes) -> list[int]:
    out = []
    i = data.find(needle)
    while i >= 0:
        out.append(i)
        i = data.find(needle, i + 1)
    return out
