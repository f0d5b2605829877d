"""Python front-end: ``LLM(...)`` / ``EngineArgs(...)`` calls, subprocess command lines, ``os.environ``.

Static only: the user's code is parsed, never imported or run.

What it finds
-------------
* Keyword arguments of ``LLM``, ``EngineArgs`` and ``AsyncEngineArgs`` under whatever name they are
  imported (``from vllm import LLM as E``, ``import vllm as v; v.LLM``, ``from
  vllm.engine.arg_utils import AsyncEngineArgs``, and unbound bare names as in documentation
  snippets). ``style="kwargs"``; the first positional argument is the model
  (``context["model"]`` and a ``KeyedArg("model", key_span=None)``). ``**{...}`` literals and
  ``**name`` where ``name`` is bound to a dict literal / ``dict(...)`` call in the same scope
  (function, else module) are expanded into KeyedArgs; any other ``**x`` / ``*x`` makes the launch
  ``opaque``. ``AsyncEngineArgs.from_cli_args(args)`` is not a call of the class and is ignored.
* ``subprocess.run/Popen/call/check_call/check_output``, ``os.exec*``/``os.spawn*``/
  ``os.posix_spawn*``, ``asyncio.create_subprocess_exec``: a list/tuple literal (or a name bound
  to one, ``+`` concatenations, ``shlex.split("...")``) whose words start vLLM
  (:func:`vllm_lint.frontends.commands.find_vllm_command`) -> ``style="argv"`` launch with
  ``delete_tokens`` for list literals. ``sys.executable`` reads as ``python``. A string with
  ``shell=True``, ``os.system``, ``os.popen``, ``subprocess.getoutput``,
  ``asyncio.create_subprocess_shell`` is handed to :func:`vllm_lint.frontends.shell.extract_script`
  with an offset map into the string literal (f-string fields become ``${...}`` placeholders,
  i.e. opaque shell words). ``env=`` dicts (``{**os.environ, "VLLM_X": "1"}``, ``dict(os.environ,
  ...)``, ``env = os.environ.copy(); env["VLLM_X"] = "1"``) become the launch's env.
* Command lines shown in docstrings and other string statements ("Start the server with:
  ``vllm serve m --runner pooling``"): lines that start with a vLLM command (after an optional
  ``$`` prompt) with their backslash continuations, and inline backquoted commands with an
  argument, read as shell (never run) through the string's offset map, so findings point at the
  word and fixes edit the docstring where its bytes spell the value 1:1 (a raw docstring; an
  escaped ``\\\\`` has no 1:1 bytes, so no fix is offered there). Placeholders (``<model>``,
  ``[options]``, ``...``) are opaque words (:mod:`~vllm_lint.frontends.doc_commands`).
* Mappings reaching ``**`` through the module: a name bound to a mapping is followed inside
  ``{**BASE, ...}`` and ``DEFAULTS | overrides`` (an unknown operand makes the launch opaque), and
  ``{k: v for k, v in D.items() if ...}`` over a known mapping gives its keys (opaque: the
  condition may drop some). A key given twice in a literal dict is kept twice (VL108: the first
  is silently lost).
* ``os.environ["X"] = ...``, ``os.environ.setdefault``, ``os.environ.update({...} | k=v)``,
  ``os.environ |= {...}``, ``os.putenv`` -> ``Extraction.env`` (every literal name, not only
  ``VLLM_*``; rules decide what matters).

``Launch.context`` keys: ``model`` (value of the first positional / ``model=``),
``model_positional``, ``positional`` (source text of further positionals), ``kwargs_dicts`` (names
expanded with ``**``), ``python_call`` (the subprocess/os function), ``image`` (docker run),
``python_shell_string`` and ``shell_span`` (launches found in a shell string; ``span`` is then the
Python call).

Known limits: deletes of two adjacent arguments are computed independently and may overlap (the
fixer's loop re-lints and applies the second); a list/dict bound more than once before the call
(``if``/``else`` branches) or mutated inside a nested block makes the launch ``opaque`` (the last
binding's contents are still reported); a single binding inside an ``if`` is taken as is; tuple argv has no ``delete_tokens``;
``" ".join(cmd)`` strings are not followed.

Parser choice: stdlib ``ast``, not libcst
-----------------------------------------
Measured (CPU seconds, best of 3, a loop over every file, pre-filter bypassed; CPython 3.11;
libcst in an earlier run, on 740 stdlib files, 12.2 MB):

============================================  =========  ========  =========
corpus                                        ast.parse  libcst    extract()
============================================  =========  ========  =========
stdlib, 734 files, 12.1 MB (no vLLM)          9.5 MB/s   0.86 MB/s 9.1 MB/s
vLLM 0.8.5 source tree, 1401 files, 14.3 MB   8.8 MB/s   0.77 MB/s 8.8 MB/s
============================================  =========  ========  =========

``extract()`` includes its own ``ast.parse``, which it runs with the garbage collector off; with
the whole tree walked (before the pruning of issue 7, see "Pruning" below) it ran at 6.8 and
6.6 MB/s. So libcst would cost ~10x the parse (before any metadata provider, which deps.md measured at
another 4-7x) plus its import (138 ms CPU here, ~320 ms in deps.md). ``ast`` gives every node's
start and end as (line, UTF-8 byte column), which converts to absolute byte offsets with a
line-start table built on the raw bytes (``\\r\\n``, ``\\r``, ``\\n`` all end a line, as in CPython's
tokenizer; a UTF-8 BOM shifts line 1 by 3 bytes; files with a non-UTF-8 coding declaration get
their columns re-encoded per line). What ``ast`` lacks is the position of commas, brackets and
comments; the delete spans that need them are computed by scanning the bytes *between* sibling
nodes, which can hold only whitespace, comments, brackets, ``*``/``**`` and one comma, so no
second parser is needed. With the byte pre-filter, files that never mention vLLM cost a
``bytes in`` check (~900 MB/s).
libcst stays available to the fixer if it ever needs to re-serialise, which vllm-lint avoids.

Errors: syntax errors, undeclared non-UTF-8 bytes and null bytes raise ``ParseError(line=...)``;
pathological nesting (``RecursionError``/``MemoryError`` in the parser or in ``literal_eval``)
becomes a ``ParseError`` too, never a crash.
"""

from __future__ import annotations

import ast
import bisect
import functools
import gc
import re
from itertools import accumulate
import warnings
from typing import Any, Callable, Optional

from ..record import Record, lazy_re
from ..launch import EnvAssign, Edit, Extraction, Hardware, KeyedArg, Launch, Note, ParseError, Span, Token, VersionHint

FORMAT = "python"

__all__ = ["FORMAT", "might_contain_launch", "extract"]


def might_contain_launch(data: bytes) -> bool:
    """Cheap pre-filter: a file that never says ``vllm`` nor ``VLLM_`` holds nothing for us."""
    return b"vllm" in data or b"VLLM_" in data


def extract(data: bytes, path: str) -> Extraction:
    """Launches, env assignments and notes found in Python source ``data``."""
    # The tree has no cycles and dies with this call, yet the cyclic garbage collector's passes,
    # which ast.parse's allocations trigger, traverse it: ~15% of the parse on the benchmark
    # corpus. The collector is off for the call, and back on afterwards if it was on.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _Extractor(data, path).run()
    except ParseError:
        raise
    except (RecursionError, MemoryError) as exc:
        raise ParseError(f"expression nested too deeply to analyse ({type(exc).__name__})") from None
    finally:
        if enabled:
            gc.enable()


# ------------------------------------------------------------------------------------------
# constants

_ENTRIES = {"LLM": "LLM", "EngineArgs": "EngineArgs", "AsyncEngineArgs": "AsyncEngineArgs"}

# dotted callee -> (kind, index of the argv argument or -1 for "all positionals from index")
# kinds: "popen" (args list or shell string), "shell" (string), "argv" (list at index),
#        "varargs" (words are positionals from index)
_PROC_CALLS: dict[str, tuple[str, int]] = {
    "subprocess.run": ("popen", 0),
    "subprocess.Popen": ("popen", 0),
    "subprocess.call": ("popen", 0),
    "subprocess.check_call": ("popen", 0),
    "subprocess.check_output": ("popen", 0),
    "subprocess.getoutput": ("shell", 0),
    "subprocess.getstatusoutput": ("shell", 0),
    "os.system": ("shell", 0),
    "os.popen": ("shell", 0),
    "asyncio.create_subprocess_shell": ("shell", 0),
    "asyncio.create_subprocess_exec": ("varargs", 0),
    "os.execv": ("argv", 1),
    "os.execve": ("argv", 1),
    "os.execvp": ("argv", 1),
    "os.execvpe": ("argv", 1),
    "os.execl": ("varargs", 1),
    "os.execlp": ("varargs", 1),
    "os.execle": ("varargs-env", 1),
    "os.execlpe": ("varargs-env", 1),
    "os.spawnv": ("argv", 2),
    "os.spawnve": ("argv", 2),
    "os.spawnvp": ("argv", 2),
    "os.spawnvpe": ("argv", 2),
    "os.spawnl": ("varargs", 2),
    "os.spawnlp": ("varargs", 2),
    "os.spawnle": ("varargs-env", 2),
    "os.spawnlpe": ("varargs-env", 2),
    "os.posix_spawn": ("argv", 1),
    "os.posix_spawnp": ("argv", 1),
}
_MODULES = frozenset({"vllm"} | {d.split(".", 1)[0] for d in _PROC_CALLS})


def _ours(target: Optional[str]) -> bool:
    """Whether an import binds a name to a module this front-end reads calls of. A name imported
    twice keeps that binding (``try: import subprocess32 as subprocess`` / ``except ImportError:
    import subprocess``: either way the calls may start vLLM)."""
    return target is not None and target.split(".", 1)[0] in _MODULES


_ENV_CALLS = ("os.environ.setdefault", "os.putenv", "os.environ.update", "os.environ.__setitem__")
_INTERESTING_LAST = frozenset(
    list(_ENTRIES) + [d.rsplit(".", 1)[-1] for d in list(_PROC_CALLS) + list(_ENV_CALLS)])
_ENV_KW_INDEX = {"os.execve": 2, "os.execvpe": 2, "os.spawnve": 3, "os.spawnvpe": 3,
                 "os.posix_spawn": 2, "os.posix_spawnp": 2}

_OPAQUE_WORD = "${PYTHON_EXPR}"

# traversal tables: node classes that never hold a call or statement, and per class its statement
# blocks and the other fields worth descending into (ast.iter_child_nodes costs ~3x more, mostly on
# ctx/op leaves)
_LEAF_TYPES = frozenset(
    [ast.Name, ast.Constant, ast.alias, ast.Pass, ast.Break, ast.Continue, ast.Global, ast.Nonlocal]
    + [c for base in (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)
       for c in base.__subclasses__()]
)
_NON_CHILD_FIELDS = frozenset(
    ["ctx", "op", "ops", "id", "attr", "name", "arg", "kind", "type_comment", "level", "module",
     "names", "conversion", "is_async", "asname"]
)
_BODY_FIELDS = ("body", "orelse", "finalbody", "handlers")  # IfExp's and Lambda's are expressions
_CLASS_SPEC: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}
# statement lists only, "cases" included (match_case.body holds statements): the statement walks
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_BLOCKS: dict[type, tuple[str, ...]] = {}
_FUNC_DEFS = frozenset([ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef])
_IMPORTS = frozenset([ast.Import, ast.ImportFrom])
_STMTS = frozenset([ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr])


def _class_spec(cls: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(body fields, other child fields)`` of a node class."""
    fields = getattr(cls, "_fields", ())
    spec = (tuple(f for f in fields if f in _BODY_FIELDS),
            tuple(f for f in fields if f not in _NON_CHILD_FIELDS and f not in _BODY_FIELDS))
    _CLASS_SPEC[cls] = spec
    return spec


def _blocks(cls: type) -> tuple[str, ...]:
    """The fields of a statement, handler, match case or module that hold statements, in order."""
    blocks = _BLOCKS.get(cls)
    if blocks is None:
        blocks = _BLOCKS[cls] = tuple(f for f in getattr(cls, "_fields", ()) if f in _BLOCK_FIELDS)
    return blocks


# Pruning (issue 7). On the benchmark corpus's 45 Python files (0.9 MB of stdlib modules with a
# launch appended), walking every node, recording every binding and resolving every call cost
# ~55 ms CPU on top of ast.parse's ~110, for code that almost never holds a launch. So the walk
# enters a statement only if one of its lines holds a word that can make something in it
# matter (_Extractor._hit_lines), and a scope's bindings are collected when a launch looks a name
# up (_Scope). The words: a callee we
# look at ends in ``.name`` (``subprocess.run``, ``os.environ.update``) or is a bare entry class
# or a name imported as one of those (``from subprocess import Popen as P``); an environment
# statement names ``.environ`` or such an alias. Lines with non-ASCII bytes always count (an
# identifier is NFKC-normalised, so other characters may spell ``system``). Imports are collected
# first, by the same rule on the word ``import``. Statement line ranges come from the tokenizer
# (decorators are before ``def``), and so do the line numbers here (_Source.line_starts).


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
    return _words_re(sorted(_INTERESTING_LAST | {"environ"}))


# the dot, then whitespace, backslash continuations or (inside brackets) comments, then the name.
# A dot followed by a comment is rare in code but common in prose (``end.\n# Next``): there the
# gap is skipped (_GAP_RE) and the name after it checked, once for all the dots of one comment.
_ATTR_RE = lazy_re(lambda: rb"\.[\s\\]*(?:(?:" + _attr_words() + rb")\b|#)")
_GAP_RE = lazy_re(rb"(?:[\s\\]|#[^\r\n]*)*")
_ATTR_NAME_RE = lazy_re(lambda: rb"(?:" + _attr_words() + rb")\b")


def _touching(lines: Optional[list[int]], body: list) -> list:
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
        if st.__class__ in _FUNC_DEFS and st.decorator_list:  # decorators come before ``def``
            lo = st.decorator_list[0].lineno
        while i < n and lines[i] < lo:  # a block's statements come in order (lo never decreases)
            i += 1
        if i == n:
            break
        if lines[i] <= st.end_lineno:
            out.append(st)
    return out


_WS = b" \t\x0c\r\n\\"
# for _Source.non_ascii: ASCII bytes stay, but \r becomes \n (both end a line), the others 0x80
_MARK_NON_ASCII = bytes(range(128)).replace(b"\r", b"\n") + b"\x80" * 128


# ------------------------------------------------------------------------------------------
# positions


class _Source:
    """Byte-offset arithmetic over the original file bytes."""

    def __init__(self, data: bytes, encoding: str):
        self.data = data
        self.utf8 = encoding in ("utf-8", "utf-8-sig")
        self.encoding = "utf-8" if self.utf8 else encoding  # for slices: a BOM is never inside
        self.bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        self._line_starts: Optional[list[int]] = None
        self._non_ascii: Optional[list[int]] = None
        self._conv: dict[int, Optional[list[int]]] = {}

    @property
    def line_starts(self) -> list[int]:
        """Byte offset of each line (CPython ends lines at \\r\\n, \\r and \\n); built on first use."""
        starts = self._line_starts
        if starts is None:
            data = self.data
            # bytes.splitlines breaks at exactly these three (str.splitlines at more)
            starts = [0]
            starts.extend(accumulate(map(len, data.splitlines(True))))
            if data and data[-1] not in b"\r\n":  # the last line has no end: no line after it
                starts.pop()
            self._line_starts = starts
        return starts

    @property
    def non_ascii(self) -> list[int]:
        """The offset of the first non-ASCII byte of each line holding one; built on first use."""
        found = self._non_ascii
        if found is None:
            found = self._non_ascii = []
            data = self.data
            if not data.isascii():
                # two byte searches per such line, where a regular expression for the bytes took
                # ~8 ms per MB: every non-ASCII byte reads 0x80, and every line end \n
                marked = data.translate(_MARK_NON_ASCII)
                i = marked.find(b"\x80")
                while i >= 0:
                    found.append(i)
                    j = marked.find(b"\n", i)
                    if j < 0:
                        break
                    i = marked.find(b"\x80", j)
        return found

    def off(self, lineno: int, col: int) -> int:
        starts = self._line_starts or self.line_starts  # (the property costs a call)
        base = starts[lineno - 1] if lineno - 1 < len(starts) else len(self.data)
        if lineno == 1:
            base += self.bom
        if self.utf8:
            return base + col
        return base + self._convert(lineno, base, col)

    def _convert(self, lineno: int, base: int, col: int) -> int:
        """Map a UTF-8 column to a byte column in the file's declared encoding."""
        conv = self._conv.get(lineno, 0)
        if conv == 0:
            end = self.line_starts[lineno] if lineno < len(self.line_starts) else len(self.data)
            raw = self.data[base:end]
            if raw.isascii():
                conv = None
            else:
                conv = [0]
                try:
                    for ch in raw.decode(self.encoding):
                        n8 = len(ch.encode("utf-8"))
                        nf = len(ch.encode(self.encoding))
                        last = conv[-1]
                        conv.extend([last] * (n8 - 1))
                        conv.append(last + nf)
                except (UnicodeError, LookupError):
                    conv = None
            self._conv[lineno] = conv
        if conv is None or col >= len(conv):
            return col if conv is None else conv[-1] + (col - len(conv) + 1)
        return conv[col]

    def span(self, node: ast.AST) -> Span:
        return Span(self.off(node.lineno, node.col_offset), self.off(node.end_lineno, node.end_col_offset))

    def line_start(self, pos: int) -> int:
        return self.line_starts[bisect.bisect_right(self.line_starts, pos) - 1]

    def line_end(self, pos: int) -> tuple[int, int]:
        """``(end of content, start of next line)`` for the line holding ``pos``."""
        i = bisect.bisect_right(self.line_starts, pos)
        if i < len(self.line_starts):
            nxt = self.line_starts[i]
            content_end = nxt - 1
            if content_end > 0 and self.data[content_end - 1:content_end + 1] == b"\r\n":
                content_end -= 1
            return content_end, nxt
        return len(self.data), len(self.data)

    def text(self, span: Span) -> str:
        return self.data[span.start:span.end].decode(self.encoding, "replace")


def _scan_gap(data: bytes, a: int, b: int) -> list[int]:
    """Positions of the significant bytes in ``data[a:b]`` (no whitespace, comments, ``\\``+EOL)."""
    out = []
    i = a
    while i < b:
        c = data[i]
        if c == 0x23:  # '#'
            while i < b and data[i] not in (0x0A, 0x0D):
                i += 1
            continue
        if c in _WS:
            i += 1
            continue
        out.append(i)
        i += 1
    return out


class _Item(Record):
    __slots__ = ("start", "end", "comma")

    def __init__(self, start: int, end: int, comma: Optional[int]) -> None:
        self.start = start  # first byte of the element as written (leading '(' / '*' / '**' included)
        self.end = end  # after its last byte (trailing ')' of a parenthesised element included)
        self.comma = comma  # position of the comma that follows it, if any


class _Layout:
    """The elements of one bracketed, comma-separated container and how to cut them out."""

    def __init__(self, src: _Source, open_pos: int, close_pos: int, spans: list[Span]):
        self.src = src
        self.open = open_pos
        self.close = close_pos
        data = src.data
        items: list[_Item] = []
        n = len(spans)
        if n:
            sig = _scan_gap(data, open_pos + 1, spans[0].start)
            first_start = sig[0] if sig else spans[0].start
            starts = [first_start]
            for i in range(n):
                nxt = spans[i + 1].start if i + 1 < n else close_pos
                sig = _scan_gap(data, spans[i].end, nxt)
                comma = next((p for p in sig if data[p] == 0x2C), None)
                before = [p for p in sig if comma is None or p < comma]
                after = [p for p in sig if comma is not None and p > comma]
                end = before[-1] + 1 if before else spans[i].end
                items.append(_Item(starts[i], end, comma))
                if i + 1 < n:
                    starts.append(after[0] if after else spans[i + 1].start)
        self.items = items

    def _tail(self, i: int) -> int:
        it = self.items[i]
        return it.comma + 1 if it.comma is not None else it.end

    def _alone(self, first: int, last: int) -> bool:
        """Elements ``first..last`` (with the last comma and an end-of-line comment) fill their lines."""
        src = self.src
        data = src.data
        start = self.items[first].start
        ls = src.line_start(start)
        if data[ls:start].strip(b" \t\x0c"):
            return False
        tail = self._tail(last)
        content_end, _ = src.line_end(tail)
        rest = data[tail:content_end].strip(b" \t\x0c")
        return not rest or rest.startswith(b"#")

    def delete_span(self, first: int, last: Optional[int] = None) -> Optional[Span]:
        """Span removing elements ``first..last`` (inclusive) with their separators."""
        if last is None:
            last = first
        items = self.items
        if not (0 <= first <= last < len(items)):
            return None
        if self._alone(first, last):
            start = self.src.line_start(items[first].start)
            _, nxt = self.src.line_end(self._tail(last))
            return Span(start, nxt)
        if last + 1 < len(items):
            return Span(items[first].start, items[last + 1].start)
        if first > 0:
            return Span(items[first - 1].end, self._tail(last))
        return Span(items[first].start, self._tail(last))

    def delete_runs(self, indices: set[int]) -> Optional[list[Edit]]:
        runs: list[tuple[int, int]] = []
        for i in sorted(indices):
            if runs and runs[-1][1] == i - 1:
                runs[-1] = (runs[-1][0], i)
            else:
                runs.append((i, i))
        edits = []
        for a, b in runs:
            sp = self.delete_span(a, b)
            if sp is None:
                return None
            edits.append(Edit(sp, ""))
        return edits


# ------------------------------------------------------------------------------------------
# string literals with positions


class _StrInfo(Record):
    """A decoded ``str`` literal (possibly implicitly concatenated, possibly an f-string)."""

    __slots__ = ("value", "char_spans", "fields", "verbatim")

    def __init__(self, value: str, char_spans: list[Optional[tuple[int, int]]],
                 fields: list[tuple[int, int, int, int]], verbatim: Optional[Span]) -> None:
        self.value = value  # with f-string fields replaced by placeholders when ``fields``
        self.char_spans = char_spans  # file bytes spelling each char verbatim
        self.fields = fields  # (char index, char length, file start, file end)
        self.verbatim = verbatim  # inner bytes when the whole value is spelled 1:1 in one piece

    @property
    def opaque(self) -> bool:
        return bool(self.fields)


_SIMPLE_ESC = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n",
               "r": "\r", "t": "\t", "v": "\v"}


def _decode_literal(src: _Source, span: Span, placeholder: Callable[[int], str]) -> Optional[_StrInfo]:
    """Decode the string literal(s) in ``span`` char by char, tracking file positions.

    Returns None for bytes literals or anything this scanner does not understand.
    """
    raw = src.data[span.start:span.end]
    q = raw[:1]
    if (q == b"'" or q == b'"') and len(raw) >= 2 and raw[-1:] == q and raw[:3] != q * 3 and src.utf8:
        body = raw[1:-1]
        if body.isascii() and q not in body and b"\\" not in body and b"\n" not in body and b"\r" not in body:
            # one plain ASCII literal, each char spelled by one byte: what the loop below returns
            k = span.start + 1
            return _StrInfo(body.decode("ascii"), [(i, i + 1) for i in range(k, k + len(body))], [],
                            Span(k, k + len(body)))
    try:
        s = raw.decode(src.encoding)
    except (UnicodeError, LookupError):
        return None
    # file byte offset of each char of s
    if raw.isascii():
        offs = None
    else:
        offs = [span.start]
        for ch in s:
            offs.append(offs[-1] + len(ch.encode(src.encoding)))

    def at(i: int) -> int:
        return span.start + i if offs is None else offs[i]

    n = len(s)
    out: list[str] = []
    cspans: list[Optional[tuple[int, int]]] = []
    fields: list[tuple[int, int, int, int]] = []
    pieces = 0
    i = 0
    while i < n:
        c = s[i]
        if c in " \t\x0c\r\n":
            i += 1
            continue
        if c == "\\" and i + 1 < n and s[i + 1] in "\r\n":
            i += 2
            continue
        if c == "#":
            while i < n and s[i] not in "\r\n":
                i += 1
            continue
        j = i
        while j < n and s[j].isalpha():
            j += 1
        prefix = s[i:j].lower()
        if "b" in prefix or any(p not in "rfu" for p in prefix) or j >= n or s[j] not in "'\"":
            return None
        raw_mode = "r" in prefix
        fmode = "f" in prefix
        q = s[j:j + 3] if s[j:j + 3] in ('"""', "'''") else s[j]
        i = j + len(q)
        pieces += 1
        while True:
            if i >= n:
                return None
            if s.startswith(q, i):
                i += len(q)
                break
            c = s[i]
            if c == "\\":
                if i + 1 >= n:
                    return None
                nc = s[i + 1]
                if raw_mode:
                    # raw: both chars kept (a backslash-newline keeps the newline, normalised)
                    out.append("\\")
                    cspans.append((at(i), at(i + 1)))
                    i += 1
                    continue
                if nc in "\r\n":  # line continuation inside the literal
                    i += 3 if s.startswith("\r\n", i + 1) else 2
                    continue
                if nc in _SIMPLE_ESC:
                    out.append(_SIMPLE_ESC[nc])
                    cspans.append(None)
                    i += 2
                    continue
                m = None
                if nc in "01234567":
                    m = re.match(r"\\[0-7]{1,3}", s[i:i + 4])
                elif nc == "x":
                    m = re.match(r"\\x[0-9a-fA-F]{2}", s[i:i + 4])
                elif nc == "u":
                    m = re.match(r"\\u[0-9a-fA-F]{4}", s[i:i + 6])
                elif nc == "U":
                    m = re.match(r"\\U[0-9a-fA-F]{8}", s[i:i + 10])
                elif nc == "N":
                    m = re.match(r"\\N\{[^}]*\}", s[i:i + 100])
                if m:
                    try:
                        ch = m.group(0).encode("ascii").decode("unicode_escape")
                    except (UnicodeError, ValueError):
                        return None
                    out.append(ch)
                    cspans.append(None)
                    i += len(m.group(0))
                    continue
                # unknown escape: kept verbatim
                out.append("\\")
                cspans.append((at(i), at(i + 1)))
                i += 1
                continue
            if c in "\r\n":  # newline inside a triple-quoted string, normalised to \n
                step = 2 if s.startswith("\r\n", i) else 1
                out.append("\n")
                cspans.append((at(i), at(i + 1)) if c == "\n" else None)
                i += step
                continue
            if fmode and c in "{}":
                if s.startswith(c * 2, i):
                    out.append(c)
                    cspans.append(None)
                    i += 2
                    continue
                if c == "}":
                    return None
                k = _fstring_field_end(s, i, q)
                if k is None:
                    return None
                ph = placeholder(len(fields))
                fields.append((len(out), len(ph), at(i), at(k)))
                for pc in ph:
                    out.append(pc)
                    cspans.append(None)
                i = k
                continue
            out.append(c)
            cspans.append((at(i), at(i + 1)))
            i += 1
    value = "".join(out)
    verbatim = None
    if pieces == 1 and not fields and all(cs is not None for cs in cspans):
        ok = all(cspans[k][1] == cspans[k + 1][0] for k in range(len(cspans) - 1))
        if ok:
            if cspans:
                verbatim = Span(cspans[0][0], cspans[-1][1])
            else:  # empty literal: the point between the quotes
                inner = span.start + raw.find(b'"' if b'"' in raw[:4] else b"'")
                qlen = 3 if raw[inner - span.start:inner - span.start + 3] in (b'"""', b"'''") else 1
                verbatim = Span(inner + qlen, inner + qlen)
    return _StrInfo(value, cspans, fields, verbatim)


def _fstring_field_end(s: str, i: int, q: str) -> Optional[int]:
    """Index just after the ``}`` closing the replacement field opening at ``s[i] == '{'``."""
    depth = 0
    n = len(s)
    while i < n:
        c = s[i]
        if s.startswith(q, i):
            return None
        if c in "{[(":
            depth += 1
        elif c in "}])":
            depth -= 1
            if depth == 0:
                return i + 1 if c == "}" else None
        elif c in "'\"":
            k = s.find(c, i + 1)
            if k < 0:
                return None
            i = k
        i += 1
    return None


# ------------------------------------------------------------------------------------------
# values


_NOT_LITERAL = object()


def _literal(node: ast.AST) -> Any:
    if node.__class__ is ast.Constant:  # what literal_eval returns, without the warnings guard
        return node.value
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError, AttributeError):
        return _NOT_LITERAL


# ------------------------------------------------------------------------------------------
# the extractor


class _Binding(Record):
    __slots__ = ("pos", "value", "stmt")

    def __init__(self, pos: tuple[int, int], value: ast.AST, stmt: ast.stmt) -> None:
        self.pos = pos  # (line, column): only ever compared
        self.value = value
        self.stmt = stmt


class _Mutation(Record):
    __slots__ = ("pos", "stmt", "kind", "node", "key")

    def __init__(self, pos: tuple[int, int], stmt: ast.stmt, kind: str, node: Optional[ast.AST],
                 key: Optional[ast.AST] = None) -> None:
        self.pos = pos
        self.stmt = stmt
        self.kind = kind  # "setitem" | "extend" | "append" | "insert" | "iadd" | "update" | "other"
        self.node = node  # the value / argument
        self.key = key


class _Scope:
    """A module, function, class or lambda. Its bindings and mutations are collected from its own
    statements (not those of nested functions and classes) when a launch first looks a name up."""

    def __init__(self, node: ast.AST, parent: Optional["_Scope"], parent_body: dict[int, list]):
        self.node = node
        self.parent = parent
        self._parent_body = parent_body
        self._bindings: Optional[dict[str, list[_Binding]]] = None
        self._mutations: dict[str, list[_Mutation]] = {}
        self._local_defs: set[str] = set()

    @property
    def bindings(self) -> dict[str, list[_Binding]]:
        if self._bindings is None:
            self.collect()
        return self._bindings  # type: ignore[return-value]

    @property
    def mutations(self) -> dict[str, list[_Mutation]]:
        if self._bindings is None:
            self.collect()
        return self._mutations

    @property
    def local_defs(self) -> set[str]:
        """The module's names that shadow an import: functions, classes and assignments to an
        entry class's name (anywhere outside functions and classes)."""
        if self._bindings is None:
            self.collect()
        return self._local_defs

    def collect(self) -> None:
        """Record the scope's bindings, mutations, statement blocks (``parent_body``) and, for the
        module, ``local_defs``."""
        bindings: dict[str, list[_Binding]] = {}
        mutations: dict[str, list[_Mutation]] = {}
        local_defs = self._local_defs if self.parent is None else None
        parent_body = self._parent_body
        stack = [] if self.node.__class__ is ast.Lambda else [self.node]
        while stack:
            node = stack.pop()
            for name in _blocks(node.__class__):
                body = getattr(node, name)
                for st in body:
                    parent_body[id(st)] = body
                    cls = st.__class__
                    if cls in _FUNC_DEFS:  # a scope of its own
                        if local_defs is not None:
                            local_defs.add(st.name)
                        continue
                    if cls in _STMTS:
                        _record_statement(st, bindings, mutations)
                        if local_defs is not None and cls is not ast.Expr and cls is not ast.AugAssign:
                            for t in (st.targets if cls is ast.Assign else [st.target]):
                                if t.__class__ is ast.Name and t.id in _ENTRIES:
                                    local_defs.add(t.id)
                    elif _blocks(cls):
                        stack.append(st)
        for lst in bindings.values():
            lst.sort(key=lambda b: b.pos)
        for mlst in mutations.values():
            mlst.sort(key=lambda m: m.pos)
        self._bindings, self._mutations = bindings, mutations


def _record_statement(st: ast.stmt, bindings: dict[str, list[_Binding]], mutations: dict[str, list[_Mutation]]) -> None:
    """The names an assignment binds, and the changes it (or a method call) makes to a name."""
    pos = (st.lineno, st.col_offset)
    if isinstance(st, (ast.Assign, ast.AnnAssign)):
        targets = st.targets if isinstance(st, ast.Assign) else [st.target]
        if st.value is None:
            return
        for t in targets:
            if isinstance(t, ast.Name):
                bindings.setdefault(t.id, []).append(_Binding(pos, st.value, st))
            elif isinstance(t, ast.Subscript):
                if isinstance(t.value, ast.Name):
                    mutations.setdefault(t.value.id, []).append(_Mutation(pos, st, "setitem", st.value, t.slice))
            elif isinstance(t, (ast.Tuple, ast.List)):
                for e in t.elts:
                    if isinstance(e, ast.Name):
                        bindings.setdefault(e.id, []).append(_Binding(pos, e, st))  # unknown
    elif isinstance(st, ast.AugAssign):
        if isinstance(st.target, ast.Name):
            mutations.setdefault(st.target.id, []).append(
                _Mutation(pos, st, "iadd" if isinstance(st.op, ast.Add) else "other", st.value))
    elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
        f = st.value.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            kind = f.attr if f.attr in ("extend", "append", "insert", "update") else "other"
            if f.attr in ("extend", "append", "insert", "update", "setdefault", "pop", "clear",
                          "remove", "popitem", "__setitem__"):
                node = st.value.args[-1] if st.value.args else None
                mutations.setdefault(f.value.id, []).append(_Mutation(pos, st, kind, node))


def _source_encoding(data: bytes) -> str:
    """The encoding CPython reads ``data`` in, as ``tokenize.detect_encoding`` finds it, lower case.

    It only reads the first two lines (up to ``\\n``, as ``readline`` splits): when they are ASCII
    and never say ``coding``, there is no BOM and no declaration, and the answer is UTF-8 without
    importing ``tokenize`` (~1 ms) or running it. Anything else takes the full route."""
    end = data.find(b"\n")
    if end >= 0:
        end = data.find(b"\n", end + 1)
    head = data if end < 0 else data[:end]
    if head.isascii() and b"coding" not in head:
        return "utf-8"
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise ParseError(f"bad encoding declaration: {exc}", line=getattr(exc, "lineno", None) or 1) from None
    encoding = encoding.lower()
    if encoding not in ("utf-8", "utf-8-sig"):
        try:
            "".encode(encoding)
        except LookupError:
            raise ParseError(f"unknown encoding {encoding!r}", line=1) from None
    return encoding


class _Extractor:
    def __init__(self, data: bytes, path: str):
        self.data = data
        self.path = path
        self.result = Extraction()

    # -- parsing -------------------------------------------------------------------------------

    def _parse(self) -> ast.Module:
        data = self.data
        self.src = _Source(data, _source_encoding(data))
        try:
            with warnings.catch_warnings():  # the user's invalid escapes are not our warnings
                warnings.simplefilter("ignore")
                return ast.parse(data, filename=self.path, type_comments=False)
        except SyntaxError as exc:
            msg = exc.msg if getattr(exc, "msg", None) else str(exc)
            raise ParseError(f"Python syntax error: {msg}", line=exc.lineno) from None
        except (ValueError, TypeError) as exc:  # null bytes (3.11), odd encodings
            raise ParseError(f"cannot parse as Python: {exc}", line=1) from None
        except (RecursionError, MemoryError):
            raise ParseError("expression nested too deeply to parse", line=None) from None

    # -- driver --------------------------------------------------------------------------------

    def run(self) -> Extraction:
        tree = self._parse()
        self.aliases: dict[str, str] = {}
        self.star_modules: set[str] = set()
        self.parent_body: dict[int, list] = {}
        self._expr_stmts: dict[int, ast.stmt] = {}
        self._collect_imports(tree, self._hit_lines([b"import"]))
        # after the imports: a name imported as a callee we look at is one of the words
        lines = self._hit_lines(self._alias_words() + [b"LLM", b"EngineArgs"], attributes=True)
        self.module_scope = _Scope(tree, None, self.parent_body)
        calls, env_stmts = self._walk(tree, self.module_scope, lines)
        calls.sort(key=lambda cs: (cs[0].lineno, cs[0].col_offset))
        for call, scope in calls:
            self._call(call, scope)
        env_stmts.sort(key=lambda ss: (ss[0].lineno, ss[0].col_offset))
        for st, scope in env_stmts:
            self._env_statement(st, scope)
        if _DOC_NEEDLES.search(self.data) or (b"LLM(" in self.data and b'"""' in self.data):
            self._documented_commands(tree)
        self.result.env.sort(key=_env_pos)
        return self.result

    def _documented_commands(self, tree: ast.Module) -> None:
        """Command lines shown in docstrings and other string statements ("Start the server
        with: ``vllm serve m --runner pooling``"), read as shell (never run) with exact
        positions: lines that start with a vLLM command (after an optional ``$`` prompt) with
        their backslash continuations, and inline backquoted spans that hold one with an
        argument (:func:`~vllm_lint.frontends.doc_commands.command_text`). Placeholders (``<model>``, ``...``) are opaque words."""
        from .doc_commands import COMMAND, command_text, fill, mark

        from .shell import extract_script  # noqa: PLC0415

        src = self.src
        strings: list[Span] = []

        def shell(shown: str, omap: Callable[[int], Optional[int]], utf8: bool = True) -> None:
            script = shown.encode("utf-8" if utf8 else "latin-1")
            filled, regions = fill(script)
            try:
                sub = extract_script(filled, self.path, omap)
            except ParseError:
                return
            if regions:
                mark(sub, regions, omap)
            for la in sub.launches:
                la.context["documented"] = True
            self.result.launches.extend(sub.launches)

        for node in ast.walk(tree):
            if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                    and isinstance(node.value.value, str)):
                continue
            strings.append(src.span(node.value))
            value = node.value.value
            if not (COMMAND.search(value) or "```" in value or _DOC_CALL.search(value)):
                continue
            info = _decode_literal(src, src.span(node.value), _placeholder)
            if info is None or info.value != value:
                continue
            if "```" in value or _DOC_CALL.search(value):
                self._documented_code(info)
            shown = command_text(info.value)
            if shown is not None and "```" not in value:
                script = shown.encode("utf-8")
                shell(shown, _offset_map(_StrInfo(shown, info.char_spans, [], None), script, src.utf8))
        # comments that show a command line (``# vllm serve m \``), outside the strings
        data = self.data
        if b"#" in data and _DOC_NEEDLES.search(data):
            text = bytearray(b" " * len(data))
            for m in _COMMENT_TEXT.finditer(data):
                if any(sp.start <= m.start() < sp.end for sp in strings):
                    continue
                text[m.start(1):m.end(1)] = m.group(1)
            for i in _find_all(data, b"\n"):
                text[i] = 10
            shown = command_text(text.decode("latin-1"))
            if shown is not None:
                shell(shown, lambda o: o, utf8=False)

    def _documented_code(self, info: "_StrInfo") -> None:
        """Code shown in a docstring: Markdown fenced blocks (read by the Markdown front-end), or
        else ``llm = LLM(...)`` statements (read as Python), through the string's offset map."""
        from .base import get  # noqa: PLC0415  (the registry: Markdown reads Python blocks)

        markdown = get("markdown").module

        value = info.value
        script = value.encode("utf-8")
        omap = _offset_map(info, script, self.src.utf8)
        if "```" in value:
            try:
                markdown.shift(markdown.extract(script, self.path), omap, self.result)
            except ParseError:
                pass
            return
        kept = [" " if ch != "\n" else ch for ch in value]
        lines = value.split("\n")
        pos = 0
        depth = 0
        indent = None
        for line in lines:
            start = depth == 0 and _DOC_CALL.match(line)
            if start or depth > 0:
                if start:
                    ind = len(line) - len(line.lstrip())
                    if indent not in (None, ind):
                        return  # statements at two indentations: no snippet to parse
                    indent = ind
                kept[pos:pos + len(line)] = line
                depth = max(0, depth + line.count("(") + line.count("[") + line.count("{")
                            - line.count(")") - line.count("]") - line.count("}"))
            pos += len(line) + 1
        if indent is None:
            return
        prefix = "if True:\n" if indent else ""
        code = (prefix + "".join(kept)).encode("utf-8")
        plen = len(prefix)
        try:
            sub = extract(code, self.path)
        except ParseError:
            return
        markdown.shift(sub, lambda o: omap(o - plen) if o >= plen else None, self.result)

    def _hit_lines(self, words: list[bytes], attributes: bool = False) -> Optional[list[int]]:
        """Sorted numbers of the lines holding one of ``words`` (anywhere, even inside a longer
        name or a string: a line too many is only walked), with ``attributes`` the lines of a
        ``.name`` of :data:`_ATTR_RE`, and every line with a non-ASCII byte. None (every line)
        when the file declares another encoding than UTF-8."""
        src = self.src
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
            for m in _ATTR_RE.finditer(data):
                if data[m.end() - 1] == 0x23:  # '#': does a name follow the comments?
                    if m.start() >= gap_end:  # (a later dot inside the same gap has the same answer)
                        gap_end = _GAP_RE.match(data, m.start() + 1).end()
                        named = _ATTR_NAME_RE.match(data, gap_end) is not None
                    if not named:
                        continue
                offsets.append(m.start())
        offsets.extend(src.non_ascii)
        starts = src.line_starts
        return sorted({bisect.bisect_right(starts, p) for p in offsets})

    def _collect_imports(self, tree: ast.Module, lines: Optional[list[int]]) -> None:
        """Every import, in the order of the full walk this replaced (the last one processed
        wins a name): depth first, a block's later statements first. Only statements whose lines
        say ``import`` are entered."""
        stack: list[ast.AST] = [tree]
        while stack:
            node = stack.pop()
            if node.__class__ in _IMPORTS:
                self._import(node)
                continue
            for name in _blocks(node.__class__):
                stack.extend(_touching(lines, getattr(node, name)))

    def _alias_words(self) -> list[bytes]:
        """Names imported as something :meth:`_call` or :meth:`_is_environ` acts on."""
        return [name.encode("utf-8") for name, target in self.aliases.items()
                if target in _PROC_CALLS or target in _ENV_CALLS or target == "os.environ"
                or self._entry_of(target) is not None]

    def _walk(self, tree: ast.Module, module_scope: _Scope, lines: Optional[list[int]]
              ) -> tuple[list[tuple[ast.Call, _Scope]], list[tuple[ast.stmt, _Scope]]]:
        """The calls and the statements that may set ``os.environ``, each with its scope, in the
        statements that touch ``lines``. The order does not matter: both are sorted by position,
        and a call is listed before the calls inside it (``f(a)(b)`` share a position)."""
        calls: list[tuple[ast.Call, _Scope]] = []
        env_stmts: list[tuple[ast.stmt, _Scope]] = []
        parent_body = self.parent_body
        stack: list[tuple[ast.AST, _Scope]] = [(tree, module_scope)]
        push = stack.append
        leaf = _LEAF_TYPES
        Call, FuncDefs, Lambda, Stmts = ast.Call, _FUNC_DEFS, ast.Lambda, _STMTS
        while stack:
            node, scope = stack.pop()
            cls = node.__class__
            spec = _CLASS_SPEC.get(cls)
            if spec is None:
                spec = _class_spec(cls)
            body_fields, child_fields = spec
            if cls is Call:
                calls.append((node, scope))
            elif cls in FuncDefs:
                scope, outer = _Scope(node, scope, parent_body), scope
                for name in child_fields:  # decorators, arguments, bases: the enclosing scope's
                    v = getattr(node, name, None)
                    for c in (v if v.__class__ is list else (v,)):
                        if c is not None and c.__class__ not in leaf:
                            push((c, outer))
                child_fields = ()
            elif cls is Lambda:
                push((node.body, _Scope(node, scope, parent_body)))
                for c in (*node.args.defaults, *node.args.kw_defaults):  # evaluated where it stands
                    if c is not None and c.__class__ not in leaf:
                        push((c, scope))
                continue
            elif cls in Stmts:
                self._note_statement(node, scope, env_stmts)
            for name in body_fields:
                body = getattr(node, name)
                if body.__class__ is list:
                    for st in _touching(lines, body):
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

    # -- imports and names ---------------------------------------------------------------------

    def _import(self, node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for a in node.names:
                name = a.asname or a.name.split(".")[0]
                if not _ours(self.aliases.get(name)):
                    self.aliases[name] = a.name if a.asname else name
            return
        assert isinstance(node, ast.ImportFrom)
        if node.level or not node.module:
            for a in node.names:
                self.aliases.setdefault(a.asname or a.name, "." + a.name)
            return
        for a in node.names:
            if a.name == "*":
                self.star_modules.add(node.module)
                continue
            name = a.asname or a.name
            target = f"{node.module}.{a.name}"
            if not _ours(self.aliases.get(name)):
                self.aliases[name] = target

    def _dotted(self, node: ast.AST) -> Optional[str]:
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        base = self.aliases.get(node.id)
        if base is None:
            if node.id in self.module_scope.local_defs:
                base = "<local>." + node.id
            elif self.star_modules and node.id in _ENTRIES and "vllm" in self.star_modules:
                base = "vllm." + node.id
            else:
                base = node.id
        parts.append(base)
        return ".".join(reversed(parts))

    def _entry_of(self, dotted: str) -> Optional[str]:
        last = dotted.rsplit(".", 1)[-1]
        if last not in _ENTRIES:
            return None
        if dotted == last or dotted.startswith("vllm."):
            return _ENTRIES[last]
        return None

    # -- statements: env, and names in scope ---------------------------------------------------

    def _note_statement(self, st: ast.stmt, scope: _Scope, env_stmts: list) -> None:
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
            self._expr_stmts[id(st.value)] = st

    def _is_environ(self, node: ast.AST) -> bool:
        return self._dotted(node) == "os.environ"

    def _lookup(self, name: str, scope: _Scope, pos: tuple[int, int]) -> tuple[Optional[_Binding], _Scope]:
        """The binding of ``name`` visible from ``scope`` at byte ``pos`` (latest one before it)."""
        s: Optional[_Scope] = scope
        while s is not None:
            binds = s.bindings.get(name)
            if binds and (s is scope or not isinstance(s.node, ast.ClassDef)):
                if s is scope:
                    before = [b for b in binds if b.pos < pos]
                    return (before[-1] if before else None), s
                return binds[-1], s
            s = s.parent
        return None, scope

    def _rebound(self, name: str, bscope: _Scope, pos: tuple[int, int], scope: _Scope) -> bool:
        """More than one binding could reach ``pos`` (``if``/``else`` branches, loops)."""
        binds = bscope.bindings.get(name, [])
        if bscope is scope:
            binds = [b for b in binds if b.pos < pos]
        return len(binds) > 1

    def _mutations(self, name: str, bscope: _Scope, binding: _Binding, pos: tuple[int, int], scope: _Scope) -> list[_Mutation]:
        """Changes to ``name`` after ``binding`` (and before ``pos`` when in the call's scope)."""
        muts = [m for m in bscope.mutations.get(name, []) if m.pos > binding.pos]
        if bscope is scope:
            muts = [m for m in muts if m.pos < pos]
        elif scope.mutations.get(name):
            muts = muts + [m for m in scope.mutations[name] if m.pos < pos]
        return muts

    # -- calls ---------------------------------------------------------------------------------

    def _call(self, call: ast.Call, scope: _Scope) -> None:
        f = call.func
        if f.__class__ is ast.Attribute:
            if f.attr not in _INTERESTING_LAST:
                return
        elif f.__class__ is ast.Name:
            if f.id not in _INTERESTING_LAST and f.id not in self.aliases:
                return
        else:
            return
        dotted = self._dotted(f)
        if dotted is None:
            return
        entry = self._entry_of(dotted)
        if entry is not None:
            self._kwargs_launch(call, entry, scope)
            return
        spec = _PROC_CALLS.get(dotted)
        if spec is not None:
            self._proc_launch(call, dotted, spec, scope)
            return
        if dotted in _ENV_CALLS:
            self._env_call(call, dotted)

    def _call_layout(self, call: ast.Call) -> Optional[_Layout]:
        src = self.src
        nodes: list[ast.AST] = list(call.args) + list(call.keywords)
        spans = sorted(src.span(n) for n in nodes)
        func_end = src.span(call.func).end
        call_span = src.span(call)
        stop = spans[0].start if spans else call_span.end - 1
        sig = _scan_gap(src.data, func_end, stop)
        open_pos = next((p for p in sig if src.data[p] == 0x28), None)
        if open_pos is None or src.data[call_span.end - 1] != 0x29:
            return None
        if len(call.args) == 1 and isinstance(call.args[0], ast.GeneratorExp) and not call.keywords:
            return None
        return _Layout(src, open_pos, call_span.end - 1, spans)

    def _kw_span(self, n: ast.keyword) -> Optional[Span]:
        """The bytes of a keyword argument's name."""
        src = self.src
        start = src.off(n.lineno, n.col_offset)
        try:
            raw = n.arg.encode(src.encoding)
        except (UnicodeError, LookupError):
            return None
        sp = Span(start, start + len(raw))
        return sp if src.data[sp.start:sp.end] == raw else None

    def _keyed_value(self, key: str, key_span: Optional[Span], value: ast.AST,
                     delete: Optional[Span]) -> KeyedArg:
        src = self.src
        vspan = src.span(value)
        lit = _literal(value)
        ka = KeyedArg(key=key, key_span=key_span, value=None, value_span=vspan, delete_span=delete)
        if lit is _NOT_LITERAL:
            ka.value_opaque = True
            return ka
        ka.value = lit
        ka.value_text_span = self._value_text_span(value, vspan, lit)
        return ka

    def _value_text_span(self, value: ast.AST, vspan: Span, lit: Any) -> Optional[Span]:
        if isinstance(lit, str) and isinstance(value, ast.Constant):
            info = _decode_literal(self.src, vspan, _placeholder)
            if info is not None and info.value == lit:
                return info.verbatim
            return None
        if isinstance(lit, (bool, int, float)) or lit is None:
            raw = self.src.data[vspan.start:vspan.end]
            if raw and not any(c in _WS or c == 0x23 for c in raw):
                return vspan
        return None

    def _kwargs_launch(self, call: ast.Call, entry: str, scope: _Scope) -> None:
        src = self.src
        launch = Launch(path=self.path, entry=entry, style="kwargs", span=src.span(call))
        layout = self._call_layout(call)
        order = sorted(list(call.args) + list(call.keywords), key=lambda n: (n.lineno, n.col_offset))
        index = {id(n): i for i, n in enumerate(order)}
        for n in order:
            i = index[id(n)]
            delete = layout.delete_span(i) if layout is not None else None
            if isinstance(n, ast.Starred):
                launch.opaque = True
                continue
            if isinstance(n, ast.keyword):
                if n.arg is None:
                    self._splat(n.value, launch, scope, call)
                    continue
                ka = self._keyed_value(n.arg, self._kw_span(n), n.value, delete)
                ka.key_style = "snake"
                launch.keyed.append(ka)
                if n.arg == "model":
                    launch.context["model"] = ka.value
                continue
            # a positional argument
            if n is call.args[0]:
                ka = self._keyed_value("model", None, n, None)
                launch.keyed.append(ka)
                launch.context["model"] = ka.value
                launch.context["model_positional"] = True
            else:
                launch.context.setdefault("positional", []).append(src.text(src.span(n)))
        self.result.launches.append(launch)

    def _splat(self, value: ast.AST, launch: Launch, scope: _Scope, call: ast.Call) -> None:
        """``**value`` in a kwargs call."""
        node = value
        mutations: list[_Mutation] = []
        pos = (call.lineno, call.col_offset)
        if isinstance(value, ast.Name):
            binding, bscope = self._lookup(value.id, scope, pos)
            if binding is None or binding.value is binding.stmt or not isinstance(binding.value, _MAPPING_NODES):
                launch.opaque = True
                return
            node = binding.value
            mutations = self._mutations(value.id, bscope, binding, pos, scope)
            if self._rebound(value.id, bscope, pos, scope):
                launch.opaque = True
            launch.context.setdefault("kwargs_dicts", []).append(value.id)
        keyed, opaque = self._mapping(node, scope, pos)
        if opaque is None:
            launch.opaque = True
            return
        launch.keyed.extend(keyed)
        launch.opaque = launch.opaque or opaque
        for m in mutations:
            if m.kind == "setitem" and isinstance(m.key, ast.Constant) and isinstance(m.key.value, str) \
                    and self.parent_body.get(id(m.stmt)) is self.parent_body.get(id(binding.stmt)):
                kspan = self._str_inner(m.key)
                launch.keyed.append(self._keyed_value(m.key.value, kspan, m.node, self._stmt_delete(m.stmt)))
            elif m.kind == "update" and m.node is not None and \
                    self.parent_body.get(id(m.stmt)) is self.parent_body.get(id(binding.stmt)):
                more, op = self._mapping(m.node)
                if op is None:
                    launch.opaque = True
                else:
                    launch.keyed.extend(more)
                    launch.opaque = launch.opaque or op
            else:
                launch.opaque = True

    def _str_inner(self, node: ast.AST) -> Optional[Span]:
        info = _decode_literal(self.src, self.src.span(node), _placeholder)
        if info is None or info.opaque or not isinstance(node, ast.Constant) or info.value != node.value:
            return None
        return info.verbatim

    def _dict_layout(self, node: ast.Dict) -> "_Layout":
        """The entries of a dict literal (``key: value``, or ``**x``) as a deletable list layout."""
        src = self.src
        spans = []
        for k, v in zip(node.keys, node.values):
            vs = src.span(v)
            spans.append(Span(src.span(k).start, vs.end) if k is not None else vs)
        dspan = src.span(node)
        return _Layout(src, dspan.start, dspan.end - 1, spans)

    def _mapping(self, node: ast.AST, scope: Optional[_Scope] = None, pos: Optional[tuple[int, int]] = None,
                 depth: int = 0) -> tuple[list[KeyedArg], Optional[bool]]:
        """KeyedArgs of a dict literal or ``dict(k=v, ...)``, in the order they take effect (a key
        given twice is there twice: the first is silently lost, VL108); opaque is None if not a
        mapping. With ``scope`` and ``pos`` (where the mapping is used), a name bound once to a
        mapping in the same module is followed (``{**BASE, ...}``, ``DEFAULTS | overrides``), and
        a comprehension that copies a known mapping (``{k: v for k, v in D.items() if ...}``)
        gives its keys (opaque: its condition may drop some)."""
        out: list[KeyedArg] = []
        opaque = False
        if depth > 8:
            return out, None
        if isinstance(node, ast.Name) and scope is not None and pos is not None:
            binding, bscope = self._lookup(node.id, scope, pos)
            if binding is None or binding.value is binding.stmt or not isinstance(binding.value, _MAPPING_NODES):
                return out, None
            keyed, op = self._mapping(binding.value, bscope, (binding.stmt.lineno, binding.stmt.col_offset), depth + 1)
            if op is not None and (self._rebound(node.id, bscope, pos, scope)
                                   or self._mutations(node.id, bscope, binding, pos, scope)):
                op = True
            return keyed, op
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            left, lop = self._mapping(node.left, scope, pos, depth + 1)
            right, rop = self._mapping(node.right, scope, pos, depth + 1)
            if lop is None and rop is None:
                return out, None
            return left + right, lop is None or rop is None or bool(lop) or bool(rop)
        if isinstance(node, ast.DictComp):
            gens = node.generators
            if len(gens) == 1 and isinstance(gens[0].target, ast.Tuple) and len(gens[0].target.elts) == 2 \
                    and all(isinstance(e, ast.Name) for e in gens[0].target.elts) \
                    and isinstance(node.key, ast.Name) and node.key.id == gens[0].target.elts[0].id \
                    and isinstance(node.value, ast.Name) and node.value.id == gens[0].target.elts[1].id \
                    and isinstance(gens[0].iter, ast.Call) and isinstance(gens[0].iter.func, ast.Attribute) \
                    and gens[0].iter.func.attr == "items" and not gens[0].iter.args:
                keyed, op = self._mapping(gens[0].iter.func.value, scope, pos, depth + 1)
                if op is not None:
                    return keyed, bool(op) or bool(gens[0].ifs)
            return out, None
        if isinstance(node, ast.Dict):
            layout = self._dict_layout(node)
            for i, (k, v) in enumerate(zip(node.keys, node.values)):
                if k is None:  # **x inside the literal
                    more, op = self._mapping(v, scope, pos, depth + 1)
                    out.extend(more)
                    opaque = opaque or op is None or bool(op)
                    continue
                if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                    opaque = True
                    continue
                out.append(self._keyed_value(k.value, self._str_inner(k), v, layout.delete_span(i)))
            return out, opaque
        if isinstance(node, ast.Call) and self._dotted(node.func) == "dict":
            layout = self._call_layout(node)
            order = sorted(list(node.args) + list(node.keywords), key=lambda n: (n.lineno, n.col_offset))
            for i, n in enumerate(order):
                if isinstance(n, ast.keyword) and n.arg is not None:
                    out.append(self._keyed_value(n.arg, self._kw_span(n), n.value,
                                                 layout.delete_span(i) if layout else None))
                elif isinstance(n, ast.Dict):
                    more, op = self._mapping(n)
                    out.extend(more)
                    opaque = opaque or bool(op)
                else:
                    opaque = True
            return out, opaque
        return out, None

    def _stmt_delete(self, st: ast.stmt) -> Optional[Span]:
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

    # -- environment ---------------------------------------------------------------------------

    def _env_assign(self, key: ast.AST, value: Optional[ast.AST], delete: Optional[Span],
                    name_span: Optional[Span] = None) -> Optional[EnvAssign]:
        """``key`` is a string literal node, or a keyword's name with ``name_span``."""
        if isinstance(key, str):
            name = key
        elif isinstance(key, ast.Constant) and isinstance(key.value, str):
            name = key.value
            name_span = self._str_inner(key)
        else:
            return None
        ea = EnvAssign(name=name, name_span=name_span, value=None, delete_span=delete)
        if value is None:
            ea.value_opaque = True
            return ea
        ea.value_span = self.src.span(value)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            ea.value = value.value
            ea.value_text_span = self._str_inner(value)
        else:
            ea.value_opaque = True
        return ea

    def _env_from_mapping(self, node: ast.AST, stmt_delete: Optional[Span]) -> list[EnvAssign]:
        out = []
        if isinstance(node, ast.Dict):
            layout = self._dict_layout(node)
            for i, (k, v) in enumerate(zip(node.keys, node.values)):
                if k is None:
                    continue
                delete = layout.delete_span(i) if len(node.keys) > 1 else stmt_delete
                ea = self._env_assign(k, v, delete)
                if ea:
                    out.append(ea)
        elif isinstance(node, ast.Call) and self._dotted(node.func) == "dict":
            layout = self._call_layout(node)
            order = sorted(list(node.args) + list(node.keywords), key=lambda n: (n.lineno, n.col_offset))
            for i, n in enumerate(order):
                if isinstance(n, ast.keyword) and n.arg is not None:
                    ea = self._env_assign(n.arg, n.value,
                                          layout.delete_span(i) if layout and len(order) > 1 else None,
                                          self._kw_span(n))
                    if ea:
                        out.append(ea)
                elif isinstance(n, ast.Dict):
                    out.extend(self._env_from_mapping(n, None))
        return out

    def _env_statement(self, st: ast.stmt, scope: _Scope) -> None:
        if isinstance(st, ast.Assign):
            for t in st.targets:
                if isinstance(t, ast.Subscript) and self._is_environ(t.value):
                    ea = self._env_assign(t.slice, st.value, self._stmt_delete(st) if len(st.targets) == 1 else None)
                    if ea:
                        self.result.env.append(ea)
        elif isinstance(st, ast.AugAssign) and self._is_environ(st.target):
            self.result.env.extend(self._env_from_mapping(st.value, self._stmt_delete(st)))

    def _env_call(self, call: ast.Call, dotted: str) -> None:
        stmt = self._expr_stmts.get(id(call))
        st_delete = self._stmt_delete(stmt) if stmt is not None else None
        if dotted in ("os.environ.setdefault", "os.putenv", "os.environ.__setitem__"):
            if len(call.args) >= 2 and not call.keywords:
                ea = self._env_assign(call.args[0], call.args[1], st_delete)
                if ea:
                    self.result.env.append(ea)
            return
        # os.environ.update({...}) / os.environ.update(A="1", B="2")
        if len(call.args) == 1 and not call.keywords:
            self.result.env.extend(self._env_from_mapping(call.args[0], st_delete))
        elif not call.args and call.keywords:
            layout = self._call_layout(call)
            kws = sorted(call.keywords, key=lambda n: (n.lineno, n.col_offset))
            for i, n in enumerate(kws):
                if n.arg is None:
                    continue
                delete = (layout.delete_span(i) if layout else None) if len(kws) > 1 else st_delete
                ea = self._env_assign(n.arg, n.value, delete, self._kw_span(n))
                if ea:
                    self.result.env.append(ea)

    # -- subprocess ----------------------------------------------------------------------------

    def _proc_launch(self, call: ast.Call, dotted: str, spec: tuple[str, int], scope: _Scope) -> None:
        kind, idx = spec
        kw = {k.arg: k.value for k in call.keywords if k.arg is not None}
        pos = (call.lineno, call.col_offset)
        env_node = kw.get("env")
        if env_node is None and dotted in _ENV_KW_INDEX and len(call.args) > _ENV_KW_INDEX[dotted]:
            env_node = call.args[_ENV_KW_INDEX[dotted]]
        if kind in ("varargs", "varargs-env"):
            args = list(call.args[idx:])
            if kind == "varargs-env" and args:
                env_node = args.pop()
            launches = self._argv_launches(args, call, scope, pos)
        else:
            if len(call.args) > idx:
                arg = call.args[idx]
            elif kind == "popen" and "args" in kw:
                arg = kw["args"]
            elif kind == "shell" and "cmd" in kw:
                arg = kw["cmd"]
            else:
                return
            shell = kind == "shell"
            if kind == "popen":
                sh = kw.get("shell")
                shell = isinstance(sh, ast.Constant) and bool(sh.value)
            launches = self._command_launches(arg, shell, call, scope, pos)
        if not launches:
            return
        env = self._env_kwarg(env_node, scope, pos) if env_node is not None else []
        for la in launches:
            la.env = env + la.env
            la.context.setdefault("python_call", dotted)
            self.result.launches.append(la)

    def _resolve_name(self, node: ast.AST, scope: _Scope, pos: tuple[int, int]) -> tuple[ast.AST, list[_Mutation], Optional[_Binding]]:
        if isinstance(node, ast.Name):
            binding, bscope = self._lookup(node.id, scope, pos)
            if binding is not None and binding.value is not binding.stmt:
                return binding.value, self._mutations(node.id, bscope, binding, pos, scope), binding
        return node, [], None

    def _command_launches(self, arg: ast.AST, shell: bool, call: ast.Call, scope: _Scope, pos: tuple[int, int]) -> list[Launch]:
        node, mutations, binding = self._resolve_name(arg, scope, pos)
        if isinstance(node, ast.Call) and self._dotted(node.func) == "shlex.split" and node.args:
            inner, _m, _b = self._resolve_name(node.args[0], scope, pos)
            if _is_str_node(inner):
                return self._shell_launches(inner, call)
            return []
        if _is_str_node(node):
            if shell:
                return self._shell_launches(node, call)
            return []
        if not isinstance(node, (ast.List, ast.Tuple, ast.BinOp)):
            return []
        return self._argv_launches([arg], call, scope, pos, varargs=False)

    def _argv_launches(self, parts: list[ast.AST], call: ast.Call, scope: _Scope, pos: tuple[int, int],
                       varargs: bool = True) -> list[Launch]:
        """Words from list literals, ``+`` concatenations, names bound to those (with their later
        ``append``/``extend``/``+=``), or bare elements (``varargs``: ``os.execl``-style)."""
        src = self.src
        entries: list[tuple[Token, str, Optional[_Layout], int]] = []  # token, word, layout, index

        ambiguous: list[str] = []

        def splat(node: ast.AST, span: Optional[Span]) -> None:
            entries.append((Token(text=src.text(src.span(node)), span=span, opaque=True, splat=True),
                            _OPAQUE_WORD, None, -1))

        def add_seq(seq: ast.AST, depth: int = 0) -> None:
            if isinstance(seq, (ast.List, ast.Tuple)):
                layout = None
                if isinstance(seq, ast.List):
                    sp = src.span(seq)
                    layout = _Layout(src, sp.start, sp.end - 1, [src.span(e) for e in seq.elts])
                for i, e in enumerate(seq.elts):
                    if isinstance(e, ast.Starred) and depth < 8:
                        add_seq(e.value, depth + 1)
                        continue
                    tok, word = self._element_token(e)
                    entries.append((tok, word, layout, i))
                return
            if isinstance(seq, ast.BinOp) and isinstance(seq.op, ast.Add) and depth < 50:
                add_seq(seq.left, depth + 1)
                add_seq(seq.right, depth + 1)
                return
            if isinstance(seq, ast.Name) and depth < 8:
                node, muts, binding = self._resolve_name(seq, scope, pos)
                if node is not seq and isinstance(node, (ast.List, ast.Tuple, ast.BinOp)):
                    _b, bscope = self._lookup(seq.id, scope, pos)
                    if self._rebound(seq.id, bscope, pos, scope):
                        ambiguous.append(seq.id)
                    add_seq(node, depth + 1)
                    for m in muts:
                        same_block = binding is not None and \
                            self.parent_body.get(id(m.stmt)) is self.parent_body.get(id(binding.stmt))
                        if same_block and m.kind in ("extend", "iadd") and m.node is not None:
                            add_seq(m.node, depth + 1)
                        elif same_block and m.kind == "append" and m.node is not None:
                            tok, word = self._element_token(m.node)
                            entries.append((tok, word, None, -1))
                        else:
                            splat(m.stmt, None)
                    return
            splat(seq, src.span(seq))

        try:
            if not varargs:
                add_seq(parts[0])
            else:
                for p in parts:
                    if isinstance(p, ast.Starred):
                        add_seq(p.value)
                    else:
                        tok, word = self._element_token(p)
                        entries.append((tok, word, None, -1))
        finally:
            # add_seq refers to itself: that cycle would keep this extractor, and with it the
            # whole tree, alive until the next full garbage collection
            del add_seq
        words = [w for _t, w, _l, _i in entries]
        if "vllm" not in " ".join(words):
            return []
        from .commands import find_vllm_command, version_from_image  # noqa: PLC0415 - cheap, local

        cmd = find_vllm_command(words)
        if cmd is None:
            return []
        launch = Launch(path=self.path, entry=cmd.entry, style="argv", span=src.span(call))
        launch.tokens = [t for t, _w, _l, _i in entries[cmd.args_start:]]
        launch.opaque = any(t.splat for t in launch.tokens) or bool(ambiguous)
        if cmd.image:
            launch.context["image"] = cmd.image
            tag = version_from_image(cmd.image)
            if tag:
                # the image word's span, so the hint points at the tag as written
                img = next((t for t, w, _l, _i in entries if w == cmd.image), None)
                launch.version_hints.append(VersionHint(tag, "image-tag", img.span if img else None))
        if cmd.gpu_count is not None:
            launch.hardware = Hardware(gpu_count=cmd.gpu_count, source=cmd.gpus_source)
        for wi, name, value in cmd.env:
            tok = entries[wi][0]
            launch.env.append(_env_from_token(tok, words[wi], name, value))
        table = {id(t): (lay, i) for t, _w, lay, i in entries}

        def delete_tokens(tokens: list[Token]) -> Optional[list[Edit]]:
            groups: dict[int, tuple[_Layout, set[int]]] = {}
            for t in tokens:
                lay, i = table.get(id(t), (None, -1))
                if lay is None:
                    return None
                groups.setdefault(id(lay), (lay, set()))[1].add(i)
            edits: list[Edit] = []
            for lay, idxs in groups.values():
                part = lay.delete_runs(idxs)
                if part is None:
                    return None
                edits.extend(part)
            return sorted(edits, key=lambda e: e.span.start)

        launch.delete_tokens = delete_tokens
        return [launch]

    def _element_token(self, e: ast.AST) -> tuple[Token, str]:
        src = self.src
        sp = src.span(e)
        if isinstance(e, ast.Constant) and isinstance(e.value, str):
            info = _decode_literal(src, sp, _placeholder)
            ts = info.verbatim if info is not None and info.value == e.value else None
            return Token(text=e.value, span=sp, text_span=ts), e.value
        if isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) and not isinstance(e.value, bool):
            # not valid for subprocess, but the intent is clear
            return Token(text=str(e.value), span=sp, text_span=sp), str(e.value)
        if self._dotted(e) == "sys.executable":
            return Token(text="python", span=sp, opaque=True), "python"
        if isinstance(e, ast.Starred):
            return Token(text=src.text(sp), span=sp, opaque=True, splat=True), _OPAQUE_WORD
        text = src.text(sp)
        if isinstance(e, ast.JoinedStr):
            info = _decode_literal(src, sp, lambda k: "${PY%d}" % k)
            if info is not None:
                text = info.value
        return Token(text=text, span=sp, opaque=True), _OPAQUE_WORD

    def _shell_launches(self, node: ast.AST, call: ast.Call) -> list[Launch]:
        src = self.src
        sp = src.span(node)
        info = _decode_literal(src, sp, lambda k: "${PYTHON_EXPR_%d}" % k)
        if info is None:
            return []
        if isinstance(node, ast.Constant) and info.value != node.value:
            return []
        if "vllm" not in info.value:
            return []
        script = info.value.encode("utf-8")
        omap = _offset_map(info, script, src.utf8)
        try:
            from .shell import extract_script  # noqa: PLC0415
        except ImportError:
            self.result.notes.append(Note("shell front-end unavailable: shell string not analysed", sp))
            return []
        try:
            sub = extract_script(script, self.path, omap)
        except ParseError as exc:
            self.result.notes.append(Note(f"shell string in Python not parsed: {exc.message}", sp))
            return []
        for la in sub.launches:
            la.context["shell_span"] = la.span
            la.span = src.span(call)
            la.context["python_shell_string"] = True
        self.result.env.extend(sub.env)
        self.result.notes.extend(sub.notes)
        self.result.version_hints.extend(sub.version_hints)
        return list(sub.launches)

    def _env_kwarg(self, node: ast.AST, scope: _Scope, pos: tuple[int, int]) -> list[EnvAssign]:
        node2, mutations, binding = self._resolve_name(node, scope, pos)
        out: list[EnvAssign] = []
        if isinstance(node2, (ast.Dict, ast.Call)):
            out.extend(self._env_from_mapping(node2, None))
        for m in mutations:
            if m.kind == "setitem" and m.key is not None:
                ea = self._env_assign(m.key, m.node, self._stmt_delete(m.stmt))
                if ea:
                    out.append(ea)
            elif m.kind == "update" and m.node is not None:
                out.extend(self._env_from_mapping(m.node, self._stmt_delete(m.stmt)))
        return out


_DOC_NEEDLES = lazy_re(rb"vllm serve|vllm\.entrypoints|dynamo\.vllm")
_DOC_CALL = lazy_re(r"(?m)^[ \t]*(?:\w+[ \t]*=[ \t]*)?(?:LLM|EngineArgs|AsyncEngineArgs)\(")
_COMMENT_TEXT = lazy_re(rb"(?m)^[ \t]*#[ \t]?([^\r\n]*)")


def _find_all(data: bytes, needle: bytes) -> list[int]:
    out = []
    i = data.find(needle)
    while i >= 0:
        out.append(i)
        i = data.find(needle, i + 1)
    return out


_MAPPING_NODES = (ast.Dict, ast.Call, ast.BinOp, ast.DictComp, ast.Name)


def _env_pos(ea: EnvAssign) -> int:
    sp = ea.name_span or ea.value_span
    return sp.start if sp is not None else -1


def _is_str_node(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(node, ast.JoinedStr)


def _placeholder(k: int) -> str:
    return "${PYTHON_EXPR_%d}" % k


def _env_from_token(tok: Token, word: str, name: str, value: Optional[str]) -> EnvAssign:
    ea = EnvAssign(name=name, name_span=None, value=value, value_opaque=tok.opaque)
    ts = tok.text_span
    if ts is not None and not tok.opaque:
        k = word.find(name + ("=" if value is not None else ""))
        if k >= 0 and word.isascii():
            ea.name_span = Span(ts.start + k, ts.start + k + len(name))
            if value is not None:
                vs = ts.start + k + len(name) + 1
                ea.value_span = ea.value_text_span = Span(vs, vs + len(value))
    return ea


def _offset_map(info: _StrInfo, script: bytes, utf8: bool) -> Callable[[int], Optional[int]]:
    """Per-byte map from the decoded script (UTF-8) to the file: ``omap(i)`` is where script byte
    ``i`` is spelled, None when it has no 1:1 counterpart (escapes, normalised newlines). An
    f-string field's placeholder maps its first byte to the ``{`` and its last byte to the ``}``,
    so the shell front-end's span of the placeholder word covers the field as written.
    """
    L = len(script)
    pos: list[Optional[int]] = [None] * (L + 1)
    field_at = {ci: (ln, fs, fe) for ci, ln, fs, fe in info.fields}
    chars = info.value
    k = ci = 0
    last_end: Optional[int] = None
    while ci < len(chars):
        if ci in field_at:
            ln, fs, fe = field_at[ci]
            nbytes = len(chars[ci:ci + ln].encode("utf-8"))
            pos[k] = fs
            pos[k + nbytes - 1] = fe - 1
            last_end = fe
            k += nbytes
            ci += ln
            continue
        nb = len(chars[ci].encode("utf-8"))
        cs = info.char_spans[ci]
        if cs is not None:
            pos[k] = cs[0]
            if utf8 and cs[1] - cs[0] == nb:
                for j in range(1, nb):
                    pos[k + j] = cs[0] + j
            last_end = cs[1]
        else:
            last_end = None
        k += nb
        ci += 1
    pos[L] = last_end

    def omap(off: int) -> Optional[int]:
        return pos[off] if 0 <= off <= L else None

    return omap


# ----------------------------------------------------------------------------- the format unit
# (the hooks of vllm_lint.frontends.base: the fixer's parse check, --add-noqa's equivalence check)


def parse_check(before: bytes, after: bytes) -> Optional[str]:
    """Why the fixed module ``after`` would not parse, or None."""
    try:
        ast.parse(after)
    except SyntaxError as e:
        return f"the fixed file would not parse ({e.msg})"
    except Exception as e:
        return f"the fixed file would not parse ({type(e).__name__})"
    return None


def same_meaning(before: bytes, after: bytes) -> Optional[str]:
    """None when ``after`` has the same AST as ``before``; else why not."""
    try:
        old = ast.dump(ast.parse(before))
    except (SyntaxError, ValueError):
        return None
    try:
        new = ast.dump(ast.parse(after))
    except (SyntaxError, ValueError):
        return "the Python would no longer parse"
    return None if old == new else "the Python code would change"
