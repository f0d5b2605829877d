"""The value a shell word has at a launch, where the script (or the environment its configuration
states) makes it certain: ``MODEL=org/m; vllm serve $MODEL``, ``export GPU_MEM=0.95`` then
``--gpu-memory-utilization ${GPU_MEM}``, ``-tp "${TP:-2}"`` where ``TP`` is known.

A variable's value at the launch is known when

* the last assignment of it before the launch runs on every path to the launch: it is a plain
  statement (``NAME=...``, ``export`` / ``readonly`` / ``local`` / ``declare -x`` ``NAME=...``) in
  the same sequence of statements as the launch or one around it, not in a branch, a loop, a
  function, a subshell or an ``&&`` / ``||`` list the launch is not in; its value is itself known
  (literal text, or variables known at the assignment);
* nothing else may change it: no ``read`` / ``mapfile`` / ``unset`` / ``for`` / ``getopts`` /
  ``printf -v`` / ``let`` / ``((...))`` / ``${NAME:=...}`` / ``declare -n`` of it anywhere, no
  ``source`` / ``.`` / ``eval`` between the assignment and the launch, no assignment of it in a
  function, or in a loop around the launch after it; a launch in a function sees only a variable
  assigned once in the whole script;
* or the script never sets it before the launch (it is the environment's) and the configuration
  that runs the script states it literally (``stated``: a SkyPilot task's ``envs``, a workflow's
  ``env``, a container's environment);
* or, neither, and the script is the process of an image a Dockerfile beside it builds (its
  ``ENTRYPOINT``, or ``CMD``, runs the file a ``COPY`` puts in the image), whose ``ENV`` sets the
  name literally (``ENV MAX_MODEL_LEN=4096``): that default, an assumption (``Known.assumed``, a
  finding on it says so), since the container's environment may set another.

A command substitution that reads a file, ``$(cat FILE)`` (`` `cat FILE` ``, ``$(< FILE)``), is the
file's text where FILE is a relative path known at the word, the file a small one-line regular file
beside the file holding the script (``IMAGE_REF="$(cat vllm_image.txt)"``); it is read as an input of
the result (:mod:`vllm_lint.inputs`). Any other command substitution stays unknown.

``${NAME:-default}`` is the variable's value where that is known (the default where that value is
known to be empty, with ``:-``); the default alone is never taken, as no file proves a variable
unset (the caller's environment, the image and the platform may set any name).

Quoting and word splitting are as bash does them: a quoted expansion is its value, an unquoted one
is resolved only where its value is one word (no blank, no glob character, not empty) and the
script does not set ``IFS``. Anything else stays unknown (the word stays opaque, as before).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

_NAME = rb"[A-Za-z_][A-Za-z0-9_]*"
_SIMPLE = re.compile(rb"\$(" + _NAME + rb")|\$\{(" + _NAME + rb")\}")
_DEFAULT_OPS = {b":-", b"-", b":=", b"="}
_LOOPS = frozenset({"while_statement", "for_statement", "c_style_for_statement"})
# the nodes between an assignment and the statement list it is part of, which run it unconditionally
_STATEMENT_WRAPPERS = frozenset({"variable_assignment", "declaration_command", "redirected_statement"})
# statement lists whose children run in order, one after the other
_SEQUENCES = frozenset({"program", "compound_statement", "do_group", "if_statement", "elif_clause",
                        "else_clause", "case_item"})
_CLAUSES = frozenset({"elif_clause", "else_clause", "case_item"})
# sequences whose grammar rule names no field (a script's top level, `{ }`, `do ... done`, `( )`):
# no statement of theirs is a condition or a value, which the children's fields would say at a
# cost linear in the children (a script of thousands of statements)
_FIELDLESS = frozenset({"program", "compound_statement", "do_group", "subshell"})
# POSIX special builtins: an assignment before one stays set in POSIX shells
_SPECIAL = frozenset({":", ".", "eval", "exec", "export", "readonly", "set", "shift", "trap", "unset", "break",
                      "continue", "return", "exit", "times", "source"})
_DECLARE_OK_FLAGS = frozenset("xrg")
_RUNS_TEXT = re.compile(rb"(?:^|[;&|({`]|\bthen\b|\bdo\b|\belse\b)[ \t]*(?:source|\.|eval)[ \t]", re.M)
_NAMEREF = re.compile(rb"\b(?:declare|local|typeset)[ \t]+-[A-Za-z]*n")
# what may set a variable other than an assignment (one pass over the script, every name at once:
# Resolver._index): a word after one of these commands on its line, not a `$NAME` / `${NAME`
# nor `NAME=` there; a word inside `(( ))`; `${NAME=x}` / `${NAME:=x}` / `${NAME?}`; `NAME[i]=`
_SETTERS = re.compile(rb"\b(?:read|mapfile|readarray|unset|getopts|printf|let|select|for|local|declare|typeset)\b")
_SET_WORD = re.compile(rb"(?<![\w${])(\w+)(?!\w)(?!=)")
_ARITH = re.compile(rb"\(\(")
_ARITH_WORD = re.compile(rb"\b(\w+)\b")
_DEFAULT_SET = re.compile(rb"\$\{(\w+):?[=?]")
_ELEMENT_SET = re.compile(rb"\b(?=(\w+)\[[^\]\n]*\]\+?=)")
# an assignment's start, `NAME=` / `NAME+=` (not `$NAME=`, `-NAME=`, `xNAME=`): the tree decides
_ASSIGN_START = re.compile(rb"(?<![\w$-])(\w+)\+?=")
_BLANKS = frozenset(" \t\n")
_GLOB = frozenset("*?[")
_MAX_DEPTH = 8
_MAX_FILE_VALUE = 4096  # the largest file whose text `$(cat FILE)` gives (an image reference, a model id)

UNKNOWN = None


class Known:
    """A value known statically and where it came from: ``origins``, ``(name, where)`` per variable
    read, ``where`` the script range of the assignment's value or the stated environment's entry
    (a ``Span`` in the file)."""

    __slots__ = ("text", "origins", "assumed")

    def __init__(self, text: str, origins: tuple = (), assumed: Optional[str] = None) -> None:
        self.text = text
        self.origins = origins
        self.assumed = assumed  # (a value the image's ENV gives unless the environment sets another)


class Resolver:
    """Values of a script's variables at its launches (one per script; ``root`` its tree).
    ``stated``: name -> (value or None where not known, its ``Span`` in the file) of the
    environment the configuration gives the script."""

    def __init__(self, src: bytes, root: Any, decoder: Any, stated: Optional[dict] = None,
                 folder: Optional[str] = None, image_env: Optional[Callable[[], dict]] = None) -> None:
        self.src = src
        self.folder = folder  # where `$(cat FILE)` reads FILE: the folder of the file holding the script
        # the ENV defaults of the image whose process the script is (name -> (value, note)), asked
        # for the first variable the script leaves to its environment; None: no such image
        self._image_env: Any = image_env
        self._assumed: list[str] = []
        self.root = root
        self.dec = decoder
        self.stated = stated or {}
        self._writes: dict[bytes, Optional[list]] = {}
        self._index: Optional[tuple[set, dict]] = None
        self._runs: Optional[list[tuple]] = None
        self._ifs: Optional[bool] = None
        self._nameref: Optional[bool] = None

    # ---- a word ------------------------------------------------------------------------------

    def word(self, node: Any, at: Any) -> Optional[Known]:
        """The text of word ``node`` of the command ``at`` when every expansion in it is known
        (its value, where it came from), else None."""
        if self.nameref():
            return None
        parts: list[str] = []
        origins: list = []
        self._assumed = []
        if not self._fill(node, at, False, parts, origins, 0):
            return None
        text = "".join(parts)
        if not text:
            return None  # (an empty unquoted expansion is no word at all; "" is rare on a launch)
        return Known(text, tuple(origins), "; ".join(dict.fromkeys(self._assumed)) or None)

    def _fill(self, node: Any, at: Any, quoted: bool, parts: list, origins: list, depth: int) -> bool:
        t = node.type
        if t in ("simple_expansion", "expansion"):
            got = self._ref(node, at, quoted, depth)
            if got is None:
                return False
            parts.append(got.text)
            origins.extend(got.origins)
            return True
        if t == "command_substitution":
            got = self._file_text(node, at, depth)
            if got is None or (not quoted and (any(ch in _BLANKS or ch in _GLOB for ch in got.text) or self.ifs())):
                return False
            parts.append(got.text)
            origins.extend(got.origins)
            return True
        if t in ("arithmetic_expansion", "process_substitution"):
            return False
        if t == "string":
            s, e = node.start_byte + 1, node.end_byte - 1
            if e < s or self.src[node.end_byte - 1:node.end_byte] != b'"':
                return False
            cur = s
            for c in node.named_children:
                if c.type == "string_content":
                    continue
                if c.type not in ("simple_expansion", "expansion", "command_substitution"):
                    return False
                parts.append(self._literal(self.dec._dq_text, cur, c.start_byte))
                if not self._fill(c, at, True, parts, origins, depth):
                    return False
                cur = c.end_byte
            parts.append(self._literal(self.dec._dq_text, cur, e))
            return True
        if t == "concatenation":
            cur = node.start_byte
            for c in node.children:
                if c.start_byte > cur:
                    parts.append(self._literal(self.dec._unquoted, cur, c.start_byte))
                if not self._fill(c, at, quoted, parts, origins, depth):
                    return False
                cur = max(cur, c.end_byte)
            if cur < node.end_byte:
                parts.append(self._literal(self.dec._unquoted, cur, node.end_byte))
            return True
        if t in ("translated_string", "array", "brace_expression"):
            return False
        w = self.dec.decode(node)
        if w.opaque:
            return False
        if not quoted and t in ("word", "number") and (w.text.startswith("~") or "{" in w.text):
            return False  # (tilde and brace expansion)
        parts.append(w.text)
        return True

    def _file_text(self, node: Any, at: Any, depth: int) -> Optional[Known]:
        """``$(cat FILE)`` / `` `cat FILE` `` / ``$(< FILE)``: the text of FILE, a relative path (known
        at ``at``) under the folder of the file holding the script (``folder``), a small regular
        file of one line (the substitution drops its final line breaks); else None."""
        if self.folder is None or depth > _MAX_DEPTH:
            return None
        kids = node.named_children
        if len(kids) != 1:
            return None
        c = kids[0]
        src = self.src
        if c.type == "command":
            name = c.child_by_field_name("name")
            args = [x for x in c.named_children if x.type != "command_name"]
            if name is None or src[name.start_byte:name.end_byte] != b"cat" or len(args) != 1 \
                    or c.child_by_field_name("redirect") is not None:
                return None
            arg = args[0]
        elif c.type == "file_redirect" and src[c.start_byte:c.start_byte + 1] == b"<" \
                and src[c.start_byte:c.start_byte + 2] != b"<<":
            words = c.named_children
            if len(words) != 1:
                return None
            arg = words[0]
        else:
            return None
        parts: list[str] = []
        origins: list = []
        if not self._fill(arg, at, False, parts, origins, depth + 1):
            return None
        rel = "".join(parts)
        if not rel or rel.startswith(("/", "~", "-")) or "\\" in rel or ".." in rel.split("/"):
            return None  # (the files under the script's folder only: not the machine's that runs it)
        import os

        from vllm_lint import inputs

        raw = inputs.read_other(os.path.join(self.folder, rel), _MAX_FILE_VALUE)
        if raw is None:
            return None
        try:
            text = raw.decode("utf-8").rstrip("\n")
        except UnicodeDecodeError:
            return None
        if not text or any(ch in text for ch in "\n\r\x00"):
            return None
        return Known(text, tuple(origins))

    def _literal(self, fn: Callable, s: int, e: int) -> str:
        raw = bytearray()
        fn(s, e, raw, [])
        return bytes(raw).decode("utf-8", "replace")

    def _ref(self, node: Any, at: Any, quoted: bool, depth: int) -> Optional[Known]:
        """``$NAME``, ``${NAME}``, ``${NAME:-word}`` (``-``, ``:=``, ``=``) at ``at``."""
        body = self.src[node.start_byte:node.end_byte]
        m = _SIMPLE.fullmatch(body)
        default_nodes = None
        op = None
        if m is not None:
            name = m.group(1) or m.group(2)
        else:
            kids = node.children
            if (len(kids) < 4 or kids[0].type != "${" or kids[1].type != "variable_name"
                    or kids[-1].type != "}" or self.src[kids[2].start_byte:kids[2].end_byte] not in _DEFAULT_OPS):
                return None
            name = self.src[kids[1].start_byte:kids[1].end_byte]
            op = self.src[kids[2].start_byte:kids[2].end_byte]
            default_nodes = kids[3:-1]
        value = self.value(name, at, depth)
        if value is False:
            return None
        if value is None:
            return None  # (the environment's, which may hold anything)
        if op is not None and op.startswith(b":") and value.text == "":
            parts: list[str] = []  # known to be empty: the default
            origins: list = list(value.origins)
            for c in default_nodes or ():
                if not self._fill(c, at, quoted, parts, origins, depth):
                    return None
            value = Known("".join(parts), tuple(origins))
        if not quoted and (any(ch in _BLANKS or ch in _GLOB for ch in value.text) or self.ifs()):
            return None
        return value

    # ---- a variable --------------------------------------------------------------------------

    def value(self, name: bytes, at: Any, depth: int = 0):
        """What ``$name`` holds at the statement ``at``: a :class:`Known`, None where the script
        does not set it before and the stated environment does not give it (the caller's), or
        False where not known."""
        if depth > _MAX_DEPTH:
            return False
        writes = self.writes(name)
        if writes is None:
            return False
        funcs = [a for a in _ancestors(at) if a.type == "function_definition"]
        loops = [a for a in _ancestors(at) if a.type in _LOOPS]
        if funcs and any(prefix for _n, prefix in writes):
            return False  # (`NAME=x f` sets it for a function's body)
        assigns = [n for n, prefix in writes if not prefix]
        for loop in loops:
            if any(n.start_byte > at.start_byte and loop.start_byte <= n.start_byte < loop.end_byte for n in assigns):
                return False  # set later in a loop around the launch: the next round sees it
        before = [n for n in assigns if n.end_byte <= at.start_byte]
        if funcs and (len(assigns) > 1 or len(before) != len(assigns)):
            return False  # a function may run after any assignment
        for n in before:
            if any(f.type == "function_definition" and not _contains(f, at) for f in _ancestors(n)):
                return False  # a function that sets it may have run before the launch
        if not before:
            if self._ran_before(0, at.start_byte):
                return False
            got = self.stated.get(name.decode())
            if got is None:
                return self._image_default(name.decode())
            text, where = got
            return False if text is None else Known(text, ((name.decode(), where),))
        d = before[-1]
        if not _dominates(d, at) or self._ran_before(d.end_byte, at.start_byte):
            return False
        val = d.child_by_field_name("value")
        if val is None:
            return Known("", ((name.decode(), (d.end_byte, d.end_byte)),))
        if val.type == "array" or self.src[d.start_byte:val.start_byte].rstrip().endswith(b"+="):
            return False
        parts: list[str] = []
        origins: list = []
        if not self._fill(val, d, True, parts, origins, depth + 1):
            return False
        text = "".join(parts)
        if val.type in ("word", "concatenation") and (text.startswith("~") or ":~" in text):
            return False  # (tilde expansion in an assignment)
        return Known(text, ((name.decode(), (val.start_byte, val.end_byte)),) + tuple(origins))

    def _image_default(self, name: str) -> Optional[Known]:
        """The value the ENV of the image that runs the script gives ``name`` (an assumption: the
        container's environment may set another), or None (the environment's)."""
        env = self._image_env
        if env is None:
            return None
        if callable(env):
            env = self._image_env = env() or None
            if env is None:
                return None
        got = env.get(name)
        if got is None:
            return None
        self._assumed.append(got[1])
        return Known(got[0])

    def writes(self, name: bytes) -> Optional[list]:
        """The assignments of ``name`` in the script (node, whether a command's prefix), in order;
        None when anything else may set it."""
        if name in self._writes:
            return self._writes[name]
        out: Optional[list] = self._scan(name)
        self._writes[name] = out
        return out

    def _indexed(self) -> tuple[set, dict]:
        """(the names something other than an assignment may set, name -> the (start, end) of each
        ``NAME=`` / ``NAME+=`` in the script): one pass over the script for every name, so a
        script of many variables stays linear."""
        if self._index is None:
            src = self.src
            other: set = set()
            for m in _SETTERS.finditer(src):
                end = len(src)
                for stop in (b"\n", b";", b"&", b"|"):
                    i = src.find(stop, m.end(), end)
                    if i >= 0:
                        end = i
                other.update(w.group(1) for w in _SET_WORD.finditer(src, m.end(), end))
            for m in _ARITH.finditer(src):
                end = src.find(b")", m.end())
                other.update(w.group(1) for w in _ARITH_WORD.finditer(src, m.end(), len(src) if end < 0 else end))
            other.update(m.group(1) for m in _DEFAULT_SET.finditer(src))
            other.update(m.group(1) for m in _ELEMENT_SET.finditer(src))
            starts: dict = {}
            for m in _ASSIGN_START.finditer(src):
                starts.setdefault(m.group(1), []).append((m.start(), m.end()))
            self._index = (other, starts)
        return self._index

    def _scan(self, name: bytes) -> Optional[list]:
        src = self.src
        other, starts = self._indexed()
        if name in other:
            return None
        out = []
        for m_start, m_end in starts.get(name, ()):
            node = self.root.descendant_for_byte_range(m_start, m_start + len(name))
            while node is not None and node.type != "variable_assignment":
                if node.type in ("string", "raw_string", "comment", "heredoc_body", "command_substitution"):
                    node = None
                    break
                node = node.parent
            if node is None:
                if self.root.descendant_for_byte_range(m_start, m_end).type == "ERROR":
                    return None
                continue  # in a string, a comment, a heredoc: no assignment
            nm = node.child_by_field_name("name")
            if nm is None or nm.start_byte != m_start:
                continue
            parent = node.parent
            if parent is not None and parent.type == "declaration_command":
                flags = [c for c in parent.children if c.type == "word" and src[c.start_byte:c.start_byte + 1] == b"-"]
                if any(ch not in _DECLARE_OK_FLAGS for f in flags for ch in src[f.start_byte + 1:f.end_byte].decode()):
                    return None  # declare -i / -l / -u / -a ...: the value is not the text
            prefix = parent is not None and parent.type == "command"
            if prefix:
                cmd = parent.child_by_field_name("name")
                if cmd is None or src[cmd.start_byte:cmd.end_byte].decode("utf-8", "replace") in _SPECIAL:
                    return None
            out.append((node, prefix))
        return out

    def _ran_before(self, start: int, end: int) -> bool:
        """A ``source`` / ``.`` / ``eval`` (which may set any variable) between script offsets, or
        in a function defined before ``end`` (a call may run it anywhere after)."""
        if self._runs is None:
            self._runs = []
            for m in _RUNS_TEXT.finditer(self.src):
                node = self.root.descendant_for_byte_range(m.end() - 1, m.end() - 1)
                func = next((a for a in _ancestors(node) if a.type == "function_definition"), None)
                self._runs.append((m.end(), func.start_byte if func is not None else None))
        return any(start <= r < end if func is None else func < end for r, func in self._runs)

    def ifs(self) -> bool:
        if self._ifs is None:
            writes = self.writes(b"IFS")  # (`IFS= read -r line`, a command's own, changes nothing here)
            self._ifs = writes is None or any(not prefix for _n, prefix in writes)
        return self._ifs

    def nameref(self) -> bool:
        if self._nameref is None:
            self._nameref = _NAMEREF.search(self.src) is not None
        return self._nameref


def _ancestors(node: Any):
    p = node.parent
    while p is not None:
        yield p
        p = p.parent


def _contains(outer: Any, node: Any) -> bool:
    return outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte


def _child_of(parent: Any, node: Any) -> Any:
    """The child of ``parent`` that holds ``node`` (``node`` itself when a child)."""
    child = node
    while child.parent is not None and child.parent.id != parent.id:
        child = child.parent
    return child


def _dominates(assign: Any, at: Any) -> bool:
    """The assignment runs, before it, on every path to the statement ``at``: from the assignment
    up to the first node that holds both, only statement wrappers; that node is a sequence of
    statements in which the assignment's statement comes first, neither being a branch's clause or
    a condition."""
    node = assign
    while True:
        parent = node.parent
        if parent is None:
            return False
        if _contains(parent, at):
            break
        if parent.type not in _STATEMENT_WRAPPERS and parent.type not in ("compound_statement",):
            return False
        if parent.type == "compound_statement" and parent.parent is not None \
                and parent.parent.type == "function_definition":
            return False
        node = parent
    if parent.type not in _SEQUENCES:
        return False
    mine, theirs = node, _child_of(parent, at)
    if mine.id == theirs.id or mine.start_byte >= theirs.start_byte:
        return False
    if mine.type in _CLAUSES or theirs.type in _CLAUSES:
        return False
    for field in () if parent.type in _FIELDLESS else ("condition", "value"):
        if any(f.id in (mine.id, theirs.id) for f in parent.children_by_field_name(field)):
            return False
    if parent.type == "case_item" and mine.start_byte < _pattern_end(parent):
        return False
    return True


def _pattern_end(item: Any) -> int:
    for c in item.children:
        if c.type == ")":
            return c.end_byte
    return item.start_byte
