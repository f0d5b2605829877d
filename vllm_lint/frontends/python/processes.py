"""Process calls that may start vLLM: ``subprocess.run/Popen/...``, ``os.exec*``/``os.spawn*``/
``os.posix_spawn*``, ``asyncio.create_subprocess_*``, ``os.system``/``os.popen``.

A list/tuple literal (or a name bound to one, with its later ``append``/``extend``/``+=``,
``+`` concatenations, ``shlex.split("...")``) whose words start vLLM is an ``argv`` launch, with
``delete_tokens`` for list literals; ``sys.executable`` reads as ``python``. A string run by a
shell is handed to the shell front-end through the string's embedding. ``env=`` becomes the
launch's env."""

from __future__ import annotations

import ast

from ...record import lazy_re
from ...launch import EnvAssign, Edit, Extraction, Hardware, Launch, Note, ParseError, Span, Token, VersionHint, word_replacer
from .callees import ENV_KW_INDEX
from .environ import env_default, env_kwarg
from .literals import StrInfo, decode_literal, embedding_of, is_str_node, placeholder, with_fields
from .scope import Binding, Mutation, Scope, lookup, mutations_since, rebound, resolve_name
from .source import Layout
from .state import PyFile

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

_OPAQUE_WORD = "${PYTHON_EXPR}"
# a word the shell reads back as itself: no whitespace, quotes, expansions or operators
_PLAIN_WORD = lazy_re(r"[\w@%+=:,./-]+")
_FIELD_WORD = lazy_re(r"\$\{PYTHON_EXPR_\d+\}")  # a field's placeholder in a shell word
_MAX_NESTING = 8  # names and ``*`` followed inside an argv
_MAX_CONCAT = 50  # ``a + b + ...`` operands followed


def proc_launch(fx: PyFile, call: ast.Call, dotted: str, spec: tuple[str, int], scope: Scope) -> None:
    kind, idx = spec
    # the lists written in the call are its to read (or to decline): not launches of their own
    fx.consumed.update(id(n) for a in (*call.args, *call.keywords) for n in ast.walk(a)
                       if isinstance(n, (ast.List, ast.Tuple)))
    kw = {k.arg: k.value for k in call.keywords if k.arg is not None}
    pos = (call.lineno, call.col_offset)
    env_node = kw.get("env")
    if env_node is None and dotted in ENV_KW_INDEX and len(call.args) > ENV_KW_INDEX[dotted]:
        env_node = call.args[ENV_KW_INDEX[dotted]]
    if kind in ("varargs", "varargs-env"):
        args = list(call.args[idx:])
        if kind == "varargs-env" and args:
            env_node = args.pop()
        launches = _argv_launches(fx, args, call, scope, pos)
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
        launches = _command_launches(fx, arg, shell, call, scope, pos)
    if not launches:
        return
    env = env_kwarg(fx, env_node, scope, pos) if env_node is not None else []
    for la in launches:
        la.env = env + la.env
        fx.result.launches.append(la)


def _command_launches(fx: PyFile, arg: ast.AST, shell: bool, call: ast.Call, scope: Scope,
                      pos: tuple[int, int]) -> list[Launch]:
    if not shell and isinstance(arg, ast.Name):
        branches = _branch_bindings(fx, arg.id, scope, pos)
        if branches:
            return [la for b in branches for la in _bound_argv_launches(fx, arg.id, b, scope, pos)]
    node, _mutations, _binding = resolve_name(arg, scope, pos)
    formatted = _formatted_string(fx, node, scope, pos)
    if formatted is not None:
        if not shell:
            return []
        launches = _shell_launches(fx, formatted[0], call, fields=formatted[1])
        template = node.left if isinstance(node, ast.BinOp) else node.func.value  # type: ignore[attr-defined]
        if isinstance(template, ast.Name):  # (a literal in place needs no word of how it was read)
            for la in launches:
                la.read_as = f"the template `{template.id}` formatted here, its fields unknown"
        return launches
    if shell and isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        info = _concatenated(fx, node)
        if info is not None:
            launches = _shell_launches(fx, node, call, info=info)
            for la in launches:
                la.read_as = "a string concatenation, its pieces that are no literal unknown"
            return launches
    if isinstance(node, ast.Call) and fx.names.dotted(node.func) == "shlex.split" and node.args:
        inner, _m, _b = resolve_name(node.args[0], scope, pos)
        if is_str_node(inner):
            return _shell_launches(fx, inner, call)
        return []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split" \
            and not node.args and not node.keywords:
        # "vllm serve ... ".split() / cmd.split(): words at whitespace, no quotes read
        inner, _m, _b = resolve_name(node.func.value, scope, pos)
        if is_str_node(inner):
            return _shell_launches(fx, inner, call, split_only=True)
        return []
    joined = _joined(fx, node)
    if joined is not None:
        seq, shell_splits = joined
        if not shell:
            return []
        return _argv_launches(fx, [seq], call, scope, pos, varargs=False, plain=shell_splits)
    if is_str_node(node):
        if shell:
            return _shell_launches(fx, node, call)
        return []
    if not isinstance(node, (ast.List, ast.Tuple, ast.BinOp)):
        return []
    return _argv_launches(fx, [arg], call, scope, pos, varargs=False)


class ArgvWords:
    """The words of an argv as written: per word its token, its text (opaque words read as
    :data:`_OPAQUE_WORD`), and the list literal and index it can be deleted from."""

    def __init__(self, fx: PyFile, scope: Scope, pos: tuple[int, int]):
        self.fx = fx
        self.scope = scope
        self.pos = pos
        self.entries: list[tuple[Token, str, Optional[Layout], int]] = []  # token, word, layout, index
        self.ambiguous: list[str] = []  # names bound more than once before the call
        self.seqs: list[int] = []  # id() of the list and tuple literals read (``PyFile.consumed``)

    def deleter(self):
        """``Launch.delete_tokens`` for these words."""
        return _token_deleter({id(t): (lay, i) for t, _w, lay, i in self.entries})

    def element(self, e: ast.AST, layout: Optional[Layout] = None, index: int = -1,
                after: Optional[ast.AST] = None) -> None:
        tok, word = _element_token(self.fx, e)
        if word == _OPAQUE_WORD and not self.entries and e.__class__ is ast.Name:
            # (the argv's program given by name: `[vllm_bin, "serve", ...]`; ``after``: the next word)
            program = _program_of(e.id, self.scope, self.pos, after)
            if program is not None:
                tok = Token(text=program[0], span=tok.span, assumed=program[1])
                word = program[0]
        self.entries.append((tok, word, layout, index))

    def splat(self, node: ast.AST, span: Optional[Span]) -> None:
        src = self.fx.src
        self.entries.append((Token(text=src.text(src.span(node)), span=span, opaque=True, splat=True),
                             _OPAQUE_WORD, None, -1))

    def add_seq(self, seq: ast.AST, depth: int = 0) -> None:
        """A list or tuple literal, ``a + b``, or a name bound to one of those."""
        src = self.fx.src
        if isinstance(seq, (ast.List, ast.Tuple)):
            self.seqs.append(id(seq))
            layout = None
            if isinstance(seq, ast.List):
                sp = src.span(seq)
                layout = Layout(src, sp.start, sp.end - 1, [src.span(e) for e in seq.elts])
            elts = seq.elts
            for i, e in enumerate(elts):
                if isinstance(e, ast.Starred) and depth < _MAX_NESTING:
                    self.add_seq(e.value, depth + 1)
                    continue
                self.element(e, layout, i, elts[i + 1] if i + 1 < len(elts) else None)
            return
        if isinstance(seq, ast.BinOp) and isinstance(seq.op, ast.Add) and depth < _MAX_CONCAT:
            self.add_seq(seq.left, depth + 1)
            self.add_seq(seq.right, depth + 1)
            return
        if isinstance(seq, ast.Name) and depth < _MAX_NESTING and self._add_named(seq, depth):
            return
        self.splat(seq, src.span(seq))

    def _add_named(self, seq: ast.Name, depth: int) -> bool:
        """The words of the sequence ``seq`` is bound to, with its later changes; False if none."""
        fx, scope, pos = self.fx, self.scope, self.pos
        node, muts, binding = resolve_name(seq, scope, pos)
        if node is seq or not isinstance(node, (ast.List, ast.Tuple, ast.BinOp)):
            return False
        _b, bscope = lookup(seq.id, scope, pos)
        if rebound(seq.id, bscope, pos, scope):
            self.ambiguous.append(seq.id)
        self.add_bound(node, muts, binding, depth)
        return True

    def add_bound(self, node: ast.AST, muts: list[Mutation], binding: Optional[Binding], depth: int = 0) -> None:
        """The words of a name's bound value ``node`` with its later changes ``muts``: an
        ``append``/``extend``/``+=`` in the binding's block is read, any other change is opaque."""
        fx = self.fx
        self.add_seq(node, depth + 1)
        for m in muts:
            same_block = binding is not None and fx.same_block(m.stmt, binding.stmt)
            if same_block and m.kind in ("extend", "iadd") and m.node is not None:
                self.add_seq(m.node, depth + 1)
            elif same_block and m.kind == "append" and m.node is not None:
                self.element(m.node)
            else:
                self.splat(m.stmt, None)


def _branch_bindings(fx: PyFile, name: str, scope: Scope, pos: tuple[int, int]) -> list[Binding]:
    """The bindings of ``name`` in the call's own scope that may each reach ``pos`` (``if``/``else``
    branches: no later binding before ``pos`` stands in the same block), when there are several."""
    binds = [b for b in scope.bindings.get(name, []) if b.pos < pos]
    if len(binds) < 2:
        return []
    live = [b for i, b in enumerate(binds)
            if b.value is not b.stmt and not any(fx.same_block(b.stmt, later.stmt) for later in binds[i + 1:])]
    return live if len(live) > 1 else []


def _bound_argv_launches(fx: PyFile, name: str, binding: Binding, scope: Scope,
                         pos: tuple[int, int]) -> list[Launch]:
    """The launch of one branch's binding of an argv name, reported at the bound value."""
    node = binding.value
    if not isinstance(node, (ast.List, ast.Tuple, ast.BinOp)):
        return []
    words = ArgvWords(fx, scope, pos)
    words.add_bound(node, mutations_since(name, scope, binding, pos, scope), binding)
    return launches_of_words(fx, words, fx.src.span(node))


# printf-style conversions (``%s``, ``%(name)d``, ``%-10.3f``) and ``%%``
_PRINTF = lazy_re(r"%(?:%|(?:\([^)]*\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?[diouxXeEfFgGcrsa])")
# str.format fields (``{}``, ``{0}``, ``{name!r:>10}``) and the escapes ``{{`` ``}}``
_FORMAT_FIELD = lazy_re(r"\{\{|\}\}|\{[^{}]*\}")


def _formatted_string(fx: PyFile, node: ast.AST, scope: Optional[Scope] = None,
                      pos: tuple[int, int] = (0, 0)) -> Optional[tuple[ast.AST, object]]:
    """``"..." % (...)`` or ``"...".format(...)`` on a string literal, or on a name bound once to
    one (``tmpl = "vllm serve {model} --port {port}"``, then ``tmpl.format(...)``): the literal and
    the pattern of its fields (each an opaque word once filled in)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        template, pattern = node.left, _PRINTF
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        template, pattern = node.func.value, _FORMAT_FIELD
    else:
        return None
    if isinstance(template, ast.Name) and scope is not None:
        bound, mutations, binding = resolve_name(template, scope, pos)
        if binding is None or mutations:
            return None  # changed after it was bound: which text is formatted is not certain
        template = bound
    if isinstance(template, ast.Constant) and isinstance(template.value, str):
        return template, pattern
    return None


def _concatenated(fx: PyFile, node: ast.BinOp) -> Optional[StrInfo]:
    """``"vllm serve " + model + " --port 8000"``: the string the pieces make, each piece that is no
    string literal an opaque field (its value is unknown here); None unless a literal piece is
    there to read, or a piece is spelled in a way the decoder does not read."""
    pieces: list[ast.AST] = []
    stack: list[ast.AST] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add) and len(pieces) + len(stack) < _MAX_CONCAT:
            stack.extend((n.right, n.left))
        else:
            pieces.append(n)
    if not any(isinstance(p, ast.Constant) and isinstance(p.value, str) and "vllm" in p.value for p in pieces):
        return None
    src = fx.src
    out: list[str] = []
    cspans: list = []
    fields: list[tuple[int, int, int, int]] = []
    for p in pieces:
        sp = src.span(p)
        if is_str_node(p):
            base = len(fields)
            info = decode_literal(src, sp, lambda k, base=base: placeholder(base + k))
            if info is None:
                return None
            fields.extend((len(out) + ci, ln, fs, fe) for ci, ln, fs, fe in info.fields)
            out.extend(info.value)
            cspans.extend(info.char_spans)
            continue
        if isinstance(p, (ast.List, ast.Tuple, ast.Dict, ast.Set)):
            return None  # not a string concatenation
        ph = placeholder(len(fields))
        fields.append((len(out), len(ph), sp.start, sp.end))
        out.extend(ph)
        cspans.extend([None] * len(ph))
    return StrInfo("".join(out), cspans, fields, None)


def _joined(fx: PyFile, node: ast.AST) -> Optional[tuple[ast.AST, bool]]:
    """``" ".join(seq)`` or ``shlex.join(seq)``: the sequence, and whether a shell splits the
    string again at whitespace (``" ".join``: a word with a space or a quote would not come
    back as one word)."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords):
        return None
    f = node.func
    if isinstance(f, ast.Attribute) and f.attr == "join" and isinstance(f.value, ast.Constant) \
            and f.value.value == " ":
        return node.args[0], True
    if fx.names.dotted(f) == "shlex.join":
        return node.args[0], False
    return None


def _argv_launches(fx: PyFile, parts: list[ast.AST], call: ast.Call, scope: Scope, pos: tuple[int, int],
                   varargs: bool = True, plain: bool = False) -> list[Launch]:
    """Words from list literals, ``+`` concatenations, names bound to those (with their later
    ``append``/``extend``/``+=``), or bare elements (``varargs``: ``os.execl``-style). With
    ``plain``, every literal word must be one a shell reads back as itself."""
    words = ArgvWords(fx, scope, pos)
    if not varargs:
        words.add_seq(parts[0])
    else:
        for p in parts:
            if isinstance(p, ast.Starred):
                words.add_seq(p.value)
            else:
                words.element(p)
    if plain and not all(t.opaque or _PLAIN_WORD.fullmatch(w) for t, w, _l, _i in words.entries):
        return []
    return launches_of_words(fx, words, fx.src.span(call))


def launches_of_words(fx: PyFile, words: ArgvWords, span: Span, inside: bool = False) -> list[Launch]:
    """The launch the words start (``inside``: or that starts after an opaque word, as in
    ``[image, "vllm", "serve", ...]`` handed to a launcher), reported at ``span``; the literal
    sequences read are then ``consumed``."""
    from ..commands import find_vllm_command  # noqa: PLC0415 - cheap, local

    texts = [w for _t, w, _l, _i in words.entries]
    if "vllm" not in " ".join(texts):
        return []
    entries = words.entries
    launch = _argv_launch(fx, span, entries, texts, bool(words.ambiguous))
    if launch is None and inside:
        for k in range(1, len(texts) - 1):
            if texts[k - 1] == _OPAQUE_WORD and "vllm" in " ".join(texts[k:k + 3]) \
                    and find_vllm_command(texts[k:]) is not None:
                launch = _argv_launch(fx, span, entries[k:], texts[k:], bool(words.ambiguous))
                break
    if launch is None:
        return []
    fx.consumed.update(words.seqs)
    return [launch]


def _argv_launch(fx: PyFile, span: Span, entries: list[tuple[Token, str, Optional[Layout], int]],
                 texts: list[str], ambiguous: bool) -> Optional[Launch]:
    """The launch the words start, if they start vLLM."""
    from ..commands import find_vllm_command, version_from_image  # noqa: PLC0415 - cheap, local

    cmd = find_vllm_command(texts)
    if cmd is None:
        return None
    launch = Launch(path=fx.path, entry=cmd.entry, style="argv", span=span)
    launch.tokens = [t for t, _w, _l, _i in entries[cmd.args_start:]]
    launch.opaque = any(t.splat for t in launch.tokens) or ambiguous
    if cmd.image:
        launch.image = cmd.image
        tag = version_from_image(cmd.image)
        if tag:
            # the image word's span, so the hint points at the tag as written
            img = next((t for t, w, _l, _i in entries if w == cmd.image), None)
            launch.version_hints.append(VersionHint(tag, "image-tag", img.span if img else None, cmd.image))
    if cmd.gpu_count is not None:
        launch.hardware = Hardware(gpu_count=cmd.gpu_count, source=cmd.gpus_source)
    for wi, name, value in cmd.env:
        tok = entries[wi][0]
        launch.env.append(_env_from_token(tok, texts[wi], name, value))
    launch.delete_tokens = _token_deleter({id(t): (lay, i) for t, _w, lay, i in entries})
    if cmd.entry_start is not None:
        entry = entries[cmd.entry_start:cmd.args_start]
        launch.entry_words = [w for _t, w, _l, _i in entry]
        launch.replace_entry = word_replacer([t for t, _w, _l, _i in entry], launch.delete_tokens)
    return launch


def argv_words(fx: PyFile, node: ast.AST, scope: Scope, pos: tuple[int, int]) -> ArgvWords:
    """The words of one argv expression (a list, ``a + b``, a name bound to one)."""
    words = ArgvWords(fx, scope, pos)
    words.add_seq(node)
    return words


def _token_deleter(table: dict[int, tuple[Optional[Layout], int]]):
    """``Launch.delete_tokens``: the edits removing tokens from the list literals they stand in."""

    def delete_tokens(tokens: list[Token]) -> Optional[list[Edit]]:
        groups: dict[int, tuple[Layout, set[int]]] = {}
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

    return delete_tokens


# a program's base name an argv may start with, given as a parameter's default
_PROGRAMS = lazy_re(r"(?:.*/)?(?:vllm|python(?:3(?:\.\d+)?)?)")


def _program_of(name: str, scope: Scope, pos: tuple[int, int], after: Optional[ast.AST]) -> Optional[tuple[str, str]]:
    """``(program, note)`` for an argv that starts with the name ``name`` (unknown here): a
    parameter of the function the argv is in, not bound again before it, whose default is a string
    naming vLLM's program or a Python interpreter (``vllm_bin: str = "vllm"``); or, before a
    ``"serve"``, a name that says vLLM (``vllm_bin``, ``VLLM_EXE``: a caller gives the path)."""
    fn = scope.node
    if fn.__class__ in (ast.FunctionDef, ast.AsyncFunctionDef) and lookup(name, scope, pos)[0] is None:
        a = fn.args
        pairs = list(zip(a.args[len(a.args) - len(a.defaults):], a.defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
        for arg, default in pairs:
            if arg.arg == name and isinstance(default, ast.Constant) and isinstance(default.value, str) \
                    and _PROGRAMS.fullmatch(default.value):
                return (default.value.rsplit("/", 1)[-1],
                        f"`{default.value}` is the default of the parameter `{name}`, used unless a caller gives another")
    if "vllm" in name.lower() and isinstance(after, ast.Constant) and after.value == "serve":
        return "vllm", f"`{name}` is taken for vLLM's program (its value is left to the run)"
    return None


def _element_token(fx: PyFile, e: ast.AST) -> tuple[Token, str]:
    src = fx.src
    sp = src.span(e)
    if isinstance(e, ast.Constant) and isinstance(e.value, str):
        info = decode_literal(src, sp, placeholder)
        ts = info.verbatim if info is not None and info.value == e.value else None
        return Token(text=e.value, span=sp, text_span=ts), e.value
    if isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) and not isinstance(e.value, bool):
        # not valid for subprocess, but the intent is clear
        return Token(text=str(e.value), span=sp, text_span=sp), str(e.value)
    if fx.names.dotted(e) == "sys.executable":
        return Token(text="python", span=sp, opaque=True), "python"
    found = env_default(fx, e)
    if found is not None and isinstance(found[0], str):  # an argv word: the default as written
        value, default, note = found
        dsp = src.span(default)
        info = decode_literal(src, dsp, placeholder)
        ts = info.verbatim if info is not None and info.value == value else None
        return Token(text=value, span=dsp, text_span=ts, assumed=note), value
    if isinstance(e, ast.Starred):
        return Token(text=src.text(sp), span=sp, opaque=True, splat=True), _OPAQUE_WORD
    text = src.text(sp)
    if isinstance(e, ast.JoinedStr):
        info = decode_literal(src, sp, lambda k: "${PY%d}" % k)
        if info is not None:
            text = info.value
            if text.startswith("-") and "${PY" in text.split("=", 1)[0]:
                # f"--{name}": an option whose name is unknown, any option (and its value)
                return Token(text=text, span=sp, opaque=True, splat=True), _OPAQUE_WORD
    return Token(text=text, span=sp, opaque=True), _OPAQUE_WORD


# what a shell reads otherwise than ``str.split()`` does (``split_only``): quotes, escapes,
# expansions, operators, comments (a ``${PYTHON_EXPR_n}`` field is split as one word either way)
_NOT_SPLIT = lazy_re(r"[\"'\\;&|<>()`#*?\[]|\$(?!\{PYTHON_EXPR_\d+\})")


def _shell_launches(fx: PyFile, node: ast.AST, call: ast.Call, split_only: bool = False,
                    fields=None, info: Optional[StrInfo] = None) -> list[Launch]:
    """The launches of a string run by a shell; ``split_only``: a string split at whitespace
    (``str.split()``), read only when a shell would split it the same way; ``fields``: the
    pattern of the formatting fields in it (``%s``, ``{}``), read as opaque words; ``info``: the
    string already decoded (a concatenation's pieces)."""
    src = fx.src
    sp = src.span(node)
    if info is None:
        info = decode_literal(src, sp, placeholder)
        if info is None:
            return []
        if isinstance(node, ast.Constant) and info.value != node.value:
            return []
    if fields is not None:
        info = with_fields(info, fields)
        if info is None:
            return []
    if "vllm" not in info.value or split_only and _NOT_SPLIT.search(info.value):
        return []
    script = info.value.encode("utf-8")
    emb = embedding_of(info, script, src.utf8)
    try:
        from ..shell import extract_script  # noqa: PLC0415
    except ImportError:
        fx.result.notes.append(Note("shell front-end unavailable: shell string not analysed", sp))
        return []
    try:
        sub = extract_script(script, fx.path, emb)
    except ParseError as exc:
        fx.result.notes.append(Note(f"shell string in Python not parsed: {exc.message}", sp))
        return []
    for la in sub.launches:
        la.span = src.span(call)
        for t in la.tokens:
            # Python fills a field in before the shell reads the string, quoted or not
            if not t.opaque and _FIELD_WORD.search(t.text):
                t.opaque = True
    fx.result.env.extend(sub.env)
    fx.result.notes.extend(sub.notes)
    fx.result.version_hints.extend(sub.version_hints)
    return list(sub.launches)


def _env_from_token(tok: Token, word: str, name: str, value: Optional[str]) -> EnvAssign:
    """``VAR=value`` before the command in an argv (``env VLLM_X=1 vllm serve``)."""
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


# ---- the strings of a file that does not parse


def string_commands(src, path: str) -> Extraction:
    """The launches of the shell commands in the string literals of Python source that does not
    parse (Python 2): each run of adjacent literals (implicit concatenation) holding ``vllm``,
    its ``%`` or ``.format`` fields opaque when the code formats it, read as a shell command
    line at its own bytes (the call that runs it is not known without a tree)."""
    import io
    import tokenize

    out = Extraction()
    groups: list[list] = []
    prev_string = False
    # Python 2 sized a tab to the next multiple of 8 columns and accepted indentation Python 3
    # refuses (tokenize stops at "unindent does not match"): the strings are tokenized with each
    # line's indentation taken off (no token boundary depends on it), their columns put back
    lines = src.data.splitlines(keepends=True)
    indents = [len(x) - len(x.lstrip(b" \t\f")) for x in lines]
    flat = b"".join(x[k:] for x, k in zip(lines, indents))

    def at(pos: tuple[int, int]) -> tuple[int, int]:
        row, col = pos
        return row, col + (indents[row - 1] if 0 < row <= len(indents) else 0)

    try:
        for tok in tokenize.tokenize(io.BytesIO(flat).readline):
            if tok.type == tokenize.STRING:
                if prev_string:
                    groups[-1][1] = at(tok.end)
                else:
                    groups.append([at(tok.start), at(tok.end), None])
                prev_string = True
                continue
            if tok.type in (tokenize.NL, tokenize.COMMENT) and prev_string:
                continue
            if prev_string and groups:
                groups[-1][2] = tok.string  # what follows the literal: `%`, `.`
            prev_string = False
    except (tokenize.TokenError, SyntaxError, IndentationError, UnicodeError):
        pass  # the groups read so far

    def off(pos: tuple[int, int]) -> int:
        row, col = pos
        if row - 1 >= len(lines):
            return len(src.data)
        before = sum(len(x) for x in lines[:row - 1])
        return before + len(lines[row - 1].decode(src.encoding, "replace")[:col].encode(src.encoding))

    try:
        from ..shell import extract_script  # noqa: PLC0415
    except ImportError:
        return out
    for start, end, after in groups:
        sp = Span(off(start), off(end))
        if b"vllm" not in src.data[sp.start:sp.end]:
            continue
        info = decode_literal(src, sp, placeholder)
        if info is None:
            continue
        if after in ("%", "."):  # `"..." % args` / `"...".format(...)`: its fields are filled in
            filled = with_fields(info, _PRINTF if after == "%" else _FORMAT_FIELD)
            info = filled if filled is not None else info
        script = info.value.encode("utf-8")
        try:
            sub = extract_script(script, path, embedding_of(info, script, src.utf8))
        except ParseError:
            continue
        for la in sub.launches:
            for t in la.tokens:
                if not t.opaque and _FIELD_WORD.search(t.text):
                    t.opaque = True
            la.read_as = "a shell command in a string of a file Python 3 does not parse"
            if after == "+":
                la.opaque = True  # more of the command follows, unknown here
            out.launches.append(la)
        out.env.extend(sub.env)
        out.version_hints.extend(sub.version_hints)
    return out
