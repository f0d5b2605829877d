"""The file under extraction, shared by the readers of each kind of statement: its bytes and
positions, what its imports bind, the statement blocks seen, and what was found so far; with the
byte spans of the syntax the readers cut out (an argument, a dict entry, a whole statement)."""

from __future__ import annotations

import ast

from ...launch import Extraction, Span
from .callees import Names
from .literals import decode_literal, placeholder
from .source import Layout, Source, scan_gap

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional


class PyFile:
    def __init__(self, data: bytes, path: str, src: Source):
        self.data = data
        self.path = path
        self.src = src
        self.result = Extraction()
        self.names = Names()
        self.parent_body: dict[int, list] = {}  # id(statement) -> the block holding it
        self.expr_stmts: dict[int, ast.stmt] = {}  # id(call) -> its expression statement
        self.consumed: set[int] = set()  # id() of the list/tuple literals a launch was read from, or a process call was given

    def call_layout(self, call: ast.Call) -> Optional[Layout]:
        """The arguments of a call as a deletable list layout (None: no parentheses of its own)."""
        src = self.src
        nodes: list[ast.AST] = list(call.args) + list(call.keywords)
        spans = sorted(src.span(n) for n in nodes)
        func_end = src.span(call.func).end
        call_span = src.span(call)
        stop = spans[0].start if spans else call_span.end - 1
        sig = scan_gap(src.data, func_end, stop)
        open_pos = next((p for p in sig if src.data[p] == 0x28), None)
        if open_pos is None or src.data[call_span.end - 1] != 0x29:
            return None
        if len(call.args) == 1 and isinstance(call.args[0], ast.GeneratorExp) and not call.keywords:
            return None
        return Layout(src, open_pos, call_span.end - 1, spans)

    def dict_layout(self, node: ast.Dict) -> Layout:
        """The entries of a dict literal (``key: value``, or ``**x``) as a deletable list layout."""
        src = self.src
        spans = []
        for k, v in zip(node.keys, node.values):
            vs = src.span(v)
            spans.append(Span(src.span(k).start, vs.end) if k is not None else vs)
        dspan = src.span(node)
        return Layout(src, dspan.start, dspan.end - 1, spans)

    def kw_span(self, n: ast.keyword) -> Optional[Span]:
        """The bytes of a keyword argument's name."""
        src = self.src
        start = src.off(n.lineno, n.col_offset)
        try:
            raw = n.arg.encode(src.encoding)
        except (UnicodeError, LookupError):
            return None
        sp = Span(start, start + len(raw))
        return sp if src.data[sp.start:sp.end] == raw else None

    def str_inner(self, node: ast.AST) -> Optional[Span]:
        """The bytes between the quotes of a string constant that spell its value 1:1."""
        info = decode_literal(self.src, self.src.span(node), placeholder)
        if info is None or info.opaque or not isinstance(node, ast.Constant) or info.value != node.value:
            return None
        return info.verbatim

    def stmt_delete(self, st: ast.stmt) -> Optional[Span]:
        """The statement's whole lines, when it is alone on them and not alone in its block."""
        body = self.parent_body.get(id(st))
        if body is None or len(body) < 2:
            return None
        src = self.src
        sp = src.span(st)
        ls = src.line_start(sp.start)
        if src.data[ls:sp.start].strip(b" \t\x0c"):
            return None
        content_end, nxt = src.line_end(sp.end)
        rest = src.data[sp.end:content_end].strip(b" \t\x0c")
        if rest and not rest.startswith(b"#"):
            return None
        return Span(ls, nxt)

    def same_block(self, a: ast.stmt, b: ast.stmt) -> bool:
        """Both statements stand in one block (a change in a nested block may not happen)."""
        return self.parent_body.get(id(a)) is self.parent_body.get(id(b))
