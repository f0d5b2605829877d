"""Dockerfile front-end: vLLM launches in ``CMD``/``ENTRYPOINT``/``RUN``, ``ENV VLLM_*``, versions.

* ``CMD``/``ENTRYPOINT`` in exec form (JSON array; token spans inside the JSON strings, JSON
  escapes make ``text_span`` None) and shell form (parsed as shell). Docker semantics: the last
  ``ENTRYPOINT``/``CMD`` of a stage count, an exec ``ENTRYPOINT`` takes ``CMD`` as arguments, and a
  stage built ``FROM`` a vLLM image whose entrypoint is vLLM's server (not ROCm's, which start a
  shell: :func:`~vllm_lint.frontends.commands.image_starts_vllm`) without its own
  ``ENTRYPOINT`` passes ``CMD`` to vLLM (entry ``docker:<image>``). Stages inherit from earlier
  stages named in ``FROM``.
* ``RUN`` (shell form, through :func:`vllm_lint.frontends.shell.extract_script`, heredocs included;
  exec form for ``pip install``).
* ``ENV VLLM_X=1`` / ``ENV VLLM_X 1`` (``Extraction.env`` and the stage's launches).
* Version hints: a vLLM image in ``FROM`` (``dockerfile-from``), an ``ARG`` default used in that
  ``FROM`` (the tag, or the whole image reference) or in ``pip install vllm==${ARG}`` (``dockerfile-arg``, span on the default value), and
  literal ``pip install vllm==X`` (``pip-install``).

Line continuations (``\\`` or the ``# escape=`` character) and comment lines inside them follow
Docker's rules (comment lines inside a continuation are removed, they do not end it).
"""

from __future__ import annotations

import re

from vllm_lint.frontends.commands import (
    find_vllm_command,
    image_is_vllm,
    image_starts_vllm,
    version_from_image,
    version_from_pip_install,
)
from vllm_lint.frontends.embedding import Embedding
from vllm_lint.launch import (
    Edit,
    EnvAssign,
    Extraction,
    Launch,
    Note,
    ParseError,
    Span,
    Token,
    VersionHint,
    word_replacer,
)
from vllm_lint.record import Record, lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

FORMAT = "dockerfile"


def might_contain_launch(data: bytes) -> bool:
    return b"vllm" in data or b"VLLM_" in data


# --------------------------------------------------------------------------------------------
# instructions


class _Instr(Record):
    __slots__ = ("keyword", "start", "args", "end", "line_end", "skipped", "body_end")

    def __init__(self, keyword: str, start: int, args: int, end: int, line_end: int, skipped: Optional[list] = None,
                 body_end: int = 0) -> None:
        self.keyword = keyword  # upper case
        self.start = start  # offset of the keyword
        self.args = args  # offset of the first argument byte
        self.end = end  # end of the instruction's last line content (no newline)
        self.line_end = line_end  # after the newline of the last line (heredoc bodies included)
        self.skipped = [] if skipped is None else skipped  # (start, end) ranges Docker removes (comment lines)
        self.body_end = body_end  # end including heredoc bodies


_DIRECTIVE_RE = lazy_re(rb"#[ \t]*([A-Za-z]+)[ \t]*=[ \t]*(\S*)[ \t]*\r?$")
_HEREDOC_RE = lazy_re(rb"<<(-?)([\"']?)([A-Za-z_][A-Za-z0-9_]*)\2")


def _lines(data: bytes) -> list[tuple[int, int, int]]:
    """(start, content_end, next_start) for each physical line."""
    out = []
    i = 0
    n = len(data)
    while i < n:
        j = data.find(b"\n", i)
        if j == -1:
            ce = n
            nx = n
        else:
            ce = j
            nx = j + 1
        if ce > i and data[ce - 1 : ce] == b"\r":
            ce -= 1
        out.append((i, ce, nx))
        i = nx
    return out


def _instructions(data: bytes) -> tuple[list[_Instr], bytes]:
    lines = _lines(data)
    escape = b"\\"
    k = 0
    # parser directives: only at the very top
    while k < len(lines):
        s, ce, _nx = lines[k]
        m = _DIRECTIVE_RE.match(data, s, ce) if data[s:ce].lstrip().startswith(b"#") else None
        if not m or m.end() < ce and data[m.end():ce].strip():
            break
        if m.group(1).lower() == b"escape" and m.group(2) in (b"\\", b"`"):
            escape = m.group(2)
        k += 1
    out: list[_Instr] = []
    while k < len(lines):
        s, ce, nx = lines[k]
        text = data[s:ce]
        stripped = text.lstrip()
        if not stripped or stripped.startswith(b"#"):
            k += 1
            continue
        ks = s + (len(text) - len(stripped))
        m = re.match(rb"[A-Za-z]+", data[ks:ce])
        kw = m.group(0).decode().upper() if m else ""
        a = ks + (m.end() if m else 0)
        while a < ce and data[a] in b" \t":
            a += 1
        ins = _Instr(kw, ks, a, ce, nx)
        # continuations
        while data[s:ce].rstrip(b" \t").endswith(escape) and k + 1 < len(lines):
            k += 1
            while k < len(lines):
                s2, ce2, nx2 = lines[k]
                t2 = data[s2:ce2].strip()
                if t2.startswith(b"#") or not t2:
                    ins.skipped.append((s2, nx2))
                    k += 1
                    continue
                break
            if k >= len(lines):
                break
            s, ce, nx = lines[k]
            ins.end, ins.line_end = ce, nx
        k += 1
        ins.body_end = ins.line_end
        # heredocs (RUN <<EOF, COPY <<EOF)
        if kw in ("RUN", "COPY", "ADD") and b"<<" in data[ins.args : ins.end]:
            for hm in _HEREDOC_RE.finditer(data, ins.args, ins.end):
                word = hm.group(3)
                dash = hm.group(1) == b"-"
                while k < len(lines):
                    s3, ce3, nx3 = lines[k]
                    k += 1
                    body = data[s3:ce3]
                    if (body.lstrip(b"\t") if dash else body) == word:
                        ins.body_end = nx3
                        break
                    ins.body_end = nx3
        out.append(ins)
    return out, escape


# --------------------------------------------------------------------------------------------
# words of exec form (JSON) and of ENV/ARG/FROM (shell-like words)


class _JWord(Record):
    __slots__ = ("text", "start", "end", "inner", "pos")

    def __init__(self, text: str, start: int, end: int, inner: Optional[tuple[int, int]], pos: list) -> None:
        self.text = text
        self.start = start
        self.end = end
        self.inner = inner  # verbatim inner range, None with escapes
        self.pos = pos  # file offset per decoded byte (None for escapes)


_JSON_ESC = {"\"": "\"", "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _skip_ws(data: bytes, i: int, end: int, skipped: list, escape: bytes) -> int:
    while i < end:
        ch = data[i : i + 1]
        if ch in (b" ", b"\t", b"\r", b"\n"):
            i += 1
        elif ch == escape and data[i + 1 : i + 2] in (b"\n", b"\r"):
            i += 1
        else:
            hit = False
            for a, b in skipped:
                if a == i:
                    i = b
                    hit = True
                    break
            if not hit:
                return i
    return i


_TRAILING_COMMENT = lazy_re(rb"\[[^\]\n]*\][ \t]*(#.*)$")


def _note_trailing_comment(data: bytes, ins: _Instr, kw: str, out: Extraction) -> None:
    """An exec form followed by ``# ...`` on its line (``CMD ["vllm", ...]  # vllm-lint: ignore``)
    is no JSON array to Docker: ``#`` starts a comment only at the start of a line, so Docker runs
    the whole text through ``/bin/sh -c``. The linter reads it as Docker does (no launch), so a
    suppression comment there hides nothing but breaks the container: say so."""
    m = _TRAILING_COMMENT.search(data, ins.args, ins.end)
    if m is None or data[ins.args:m.start()].strip():
        return
    out.notes.append(Note(f"{kw} is not in exec form: the text after `]` (`{m.group(1).decode(errors='replace')[:40]}`) "
                          f"makes it shell form, so Docker runs the whole line through /bin/sh -c; put the "
                          f"comment on a line of its own above the instruction", Span(m.start(1), m.end(1)),
                          severity="warning"))


def _json_array(data: bytes, ins: _Instr, escape: bytes) -> Optional[list[_JWord]]:
    i = _skip_ws(data, ins.args, ins.end, ins.skipped, escape)
    if data[i : i + 1] != b"[":
        return None
    i += 1
    out: list[_JWord] = []
    i = _skip_ws(data, i, ins.end, ins.skipped, escape)
    if data[i : i + 1] == b"]":
        return out if not data[i + 1 : ins.end].strip() else None
    while True:
        if data[i : i + 1] != b'"':
            return None
        st = i
        i += 1
        raw = bytearray()
        pos: list = []
        esc = False
        while True:
            if i >= ins.end:
                return None
            c = data[i]
            if c == 0x22:
                break
            if c == 0x5C:
                nx = data[i + 1 : i + 2].decode("latin-1")
                esc = True
                if nx in _JSON_ESC:
                    raw += _JSON_ESC[nx].encode()
                    pos.append(None)
                    i += 2
                    continue
                if nx == "u" and re.match(rb"[0-9a-fA-F]{4}", data[i + 2 : i + 6]):
                    cp = int(data[i + 2 : i + 6], 16)
                    enc = chr(cp).encode("utf-8", "surrogatepass")
                    raw += enc
                    pos.extend([None] * len(enc))
                    i += 6
                    continue
                return None
            if c < 0x20:
                return None
            raw.append(c)
            pos.append(i)
            i += 1
        i += 1
        inner = None if esc else (st + 1, i - 1)
        out.append(_JWord(bytes(raw).decode("utf-8", "replace"), st, i, inner, pos))
        i = _skip_ws(data, i, ins.end, ins.skipped, escape)
        c = data[i : i + 1]
        if c == b",":
            i = _skip_ws(data, i + 1, ins.end, ins.skipped, escape)
            continue
        if c == b"]":
            rest = data[i + 1 : ins.end]
            return out if not rest.strip() else None
        return None


_WORD_RE = lazy_re(rb"""(?:[^\s"'\\]|\\.|"(?:[^"\\]|\\.)*"|'[^']*')+""", re.S)


class _SWord(Record):
    __slots__ = ("text", "start", "end", "inner", "opaque", "raw")

    def __init__(self, text: str, start: int, end: int, inner: Optional[tuple[int, int]], opaque: bool,
                 raw: bytes = b"") -> None:
        self.text = text
        self.start = start
        self.end = end
        self.inner = inner
        self.opaque = opaque
        self.raw = raw

    def blen(self, upto: str) -> int:
        """Byte length of the decoded text up to and including the first ``upto``."""
        return self.raw.index(upto.encode()) + len(upto)


def _shell_words(data: bytes, s: int, e: int) -> list[_SWord]:
    """Docker's word splitting for ENV/ARG/FROM (quotes removed, ``$`` left as written)."""
    out = []
    for m in _WORD_RE.finditer(data, s, e):
        w = m.group(0)
        if w in (b"\\",):
            continue
        raw = bytearray()
        pos = []
        i = m.start()
        q = None
        while i < m.end():
            c = data[i : i + 1]
            if q is None and c in (b'"', b"'"):
                q = c
                i += 1
                continue
            if q is not None and c == q:
                q = None
                i += 1
                continue
            if c == b"\\" and q != b"'" and i + 1 < m.end():
                raw += data[i + 1 : i + 2]
                pos.append(None)
                i += 2
                continue
            raw += c
            pos.append(i)
            i += 1
        inner = None
        if pos and all(p is not None for p in pos) and pos[-1] - pos[0] == len(pos) - 1:
            inner = (pos[0], pos[-1] + 1)
        text = bytes(raw).decode("utf-8", "replace")
        out.append(_SWord(text, m.start(), m.end(), inner, "$" in text, bytes(raw)))
    return out


_VAR_RE = lazy_re(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _substitute(text: str, vars_: dict) -> tuple[str, list]:
    """Expand ``$X``/``${X}``/``${X:-d}`` from known ARG/ENV values; returns the vars used."""
    used = []

    def rep(m):
        name = m.group(1) or m.group(4)
        known = name in vars_ and vars_[name][0] is not None
        op = m.group(2)
        if op and op.endswith("+"):
            return m.group(3) if known and vars_[name][0] else ("" if known else m.group(0))
        if known and (vars_[name][0] or not op or op == "-"):
            used.append(name)
            return vars_[name][0]
        if op and op.endswith("-"):
            return m.group(3)
        return m.group(0)

    return _VAR_RE.sub(rep, text), used


# --------------------------------------------------------------------------------------------
# extraction


class _Stage(Record):
    __slots__ = ("image", "name", "hints", "entrypoint", "cmd", "env", "vars", "vllm_image", "globals")

    def __init__(self, image: Optional[str], name: Optional[str], hints: Optional[list] = None,
                 entrypoint: Optional[tuple] = None, cmd: Optional[tuple] = None, env: Optional[list] = None,
                 vars: Optional[dict] = None, vllm_image: bool = False, globals: Optional[dict] = None) -> None:
        self.image = image  # resolved image reference
        self.name = name
        self.hints = [] if hints is None else hints
        self.entrypoint = entrypoint  # ("exec", words, ins) | ("shell", None, ins)
        self.cmd = cmd
        self.env = [] if env is None else env
        self.vars = {} if vars is None else vars  # name -> (value, span of value or None)
        self.vllm_image = vllm_image
        self.globals = {} if globals is None else globals


def extract(data: bytes, path: str) -> Extraction:
    if b"\x00" in data:
        raise ParseError("binary data (NUL byte) in Dockerfile", offset=data.index(b"\x00"))
    out = Extraction()
    instrs, escape = _instructions(data)
    global_vars: dict = {}
    stages: list[_Stage] = []
    by_name: dict[str, _Stage] = {}
    stage: Optional[_Stage] = None
    for ins in instrs:
        kw = ins.keyword
        if kw == "ARG":
            target = stage.vars if stage is not None else global_vars
            for w in _shell_words(data, ins.args, ins.end):
                name, eq, value = w.text.partition("=")
                if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
                    continue
                if eq:
                    vspan = None
                    if w.inner is not None:
                        vs = w.inner[0] + w.blen("=")
                        vspan = Span(vs, w.inner[1])
                    target[name] = (value, vspan)
                elif stage is not None and name in global_vars:
                    target[name] = global_vars[name]
                elif name not in target:
                    target[name] = (None, None)
            continue
        if kw == "FROM":
            stage = _from(data, ins, global_vars, by_name)
            stage.globals = global_vars
            stages.append(stage)
            if stage.name:
                by_name[stage.name.lower()] = stage
            out.version_hints.extend(stage.hints if stage.vllm_image else [])
            continue
        if stage is None:
            stage = _Stage(None, None)
            stages.append(stage)
        if kw == "ENV":
            _env(data, ins, stage, out)
        elif kw in ("CMD", "ENTRYPOINT"):
            words = _json_array(data, ins, escape)
            form = ("exec", words, ins) if words is not None else ("shell", None, ins)
            if words is None:
                _note_trailing_comment(data, ins, kw, out)
            if kw == "CMD":
                stage.cmd = form
            else:
                stage.entrypoint = form
                stage.cmd = None  # Docker resets an inherited CMD when ENTRYPOINT is set
        elif kw == "RUN":
            _run(data, ins, escape, stage, out, path)
    for st in stages:
        _stage_launches(data, st, escape, out, path)
    image_env = {id(e) for e in stages[-1].env} if stages else set()
    for e in out.env:  # what no container of the final image has: an earlier stage's ENV, a RUN's export
        if id(e) not in image_env:
            e.origin = "build"
    return out


def _from(data: bytes, ins: _Instr, global_vars: dict, by_name: dict) -> _Stage:
    words = [w for w in _shell_words(data, ins.args, ins.end) if not w.text.startswith("--")]
    if not words:
        return _Stage(None, None)
    img_w = words[0]
    name = None
    if len(words) >= 3 and words[1].text.lower() == "as":
        name = words[2].text
    image, used = _substitute(img_w.text, global_vars)
    parent = by_name.get(image.lower())
    st = _Stage(image, name)
    if parent is not None:
        st.image = parent.image
        st.vllm_image = parent.vllm_image
        st.hints = list(parent.hints)
        st.entrypoint = parent.entrypoint
        st.cmd = parent.cmd
        st.env = list(parent.env)
        st.vars = dict(parent.vars)
        return st
    st.vllm_image = image_is_vllm(image)
    if st.vllm_image:
        v = version_from_image(image)
        if v is not None:
            tag_arg = _arg_holding_tag(used, global_vars, v)
            if used and any(global_vars[u][0] and global_vars[u][0] in v for u in used):
                u = next(u for u in used if global_vars[u][0] and global_vars[u][0] in v)
                st.hints.append(VersionHint(v, "dockerfile-arg", global_vars[u][1], image))
            elif tag_arg is not None:
                st.hints.append(VersionHint(v, "dockerfile-arg", tag_arg, image))
            else:
                span = None
                if img_w.inner is not None and img_w.raw.rfind(b":") > img_w.raw.rfind(b"/") and b"@" not in img_w.raw:
                    span = Span(img_w.inner[0] + img_w.raw.rindex(b":") + 1, img_w.inner[1])
                elif img_w.inner is not None:
                    span = Span(*img_w.inner)
                st.hints.append(VersionHint(v, "dockerfile-from", span, image))
    return st


def _arg_holding_tag(used: list, global_vars: dict, tag: str) -> Optional[Span]:
    """The span of ``tag`` inside the default of an ``ARG`` that holds the whole image reference
    (``ARG BASE=vllm/vllm-openai:v0.23.0`` then ``FROM ${BASE}``), where the default is written
    verbatim (its bytes are its text)."""
    for u in used:
        value, vspan = global_vars[u]
        if not value or vspan is None or not value.endswith(":" + tag):
            continue
        if vspan.end - vspan.start != len(value.encode("utf-8")):
            continue
        return Span(vspan.end - len(tag.encode("utf-8")), vspan.end)
    return None


def _env(data: bytes, ins: _Instr, stage: _Stage, out: Extraction) -> None:
    words = _shell_words(data, ins.args, ins.end)
    if not words:
        return
    whole = Span(ins.start, ins.line_end)
    pairs = []
    if "=" not in words[0].text:
        # legacy form: ENV NAME value with spaces
        name = words[0].text
        vs = words[1].start if len(words) > 1 else ins.end
        value = data[vs : ins.end].decode("utf-8", "replace").strip()
        nspan = Span(*words[0].inner) if words[0].inner else None
        vspan = Span(vs, vs + len(value.encode())) if len(words) > 1 else None
        pairs.append((name, nspan, value, vspan, vspan if len(words) == 2 and words[1].inner == (
            words[1].start, words[1].end) else None, whole))
    else:
        for w in words:
            name, eq, value = w.text.partition("=")
            if not eq:
                continue
            nspan = vspan = vtext = None
            if w.inner is not None:
                nspan = Span(w.inner[0], w.inner[0] + w.blen("=") - 1)
                vtext = Span(nspan.end + 1, w.inner[1])
                vspan = vtext
            else:
                vspan = Span(w.start + w.blen("="), w.end) if data[w.start :].startswith(w.raw.partition(b"=")[0]) else None
            if len(words) == 1:
                delete = whole
            else:
                k = w.start
                while k > ins.args and data[k - 1 : k] in (b" ", b"\t"):
                    k -= 1
                if k < w.start:
                    delete = Span(k, w.end)
                else:  # first pair: remove it and the whitespace after it
                    j = w.end
                    while j < ins.end and data[j : j + 1] in (b" ", b"\t"):
                        j += 1
                    delete = Span(w.start, j) if j > w.end else None
            pairs.append((name, nspan, value, vspan, vtext, delete))
    for name, nspan, value, vspan, vtext, delete in pairs:
        opaque = "$" in value
        stage.vars[name] = (value if not opaque else None, vtext)
        if not name.startswith("VLLM_"):
            continue
        ea = EnvAssign(name, nspan, None if opaque else value, vspan,
                       None if opaque else vtext, opaque, delete)
        stage.env.append(ea)
        out.env.append(ea)


def _script_of(data: bytes, ins: _Instr, escape: bytes, start: int, end: int) -> Embedding:
    """Shell text for ``[start, end)`` with Docker-removed lines cut out, in the file."""
    segs = []  # (script_start, file_start, length)
    parts = []
    cur = start
    n = 0
    cuts = sorted((a, b) for a, b in ins.skipped if start <= a < end)
    if escape != b"\\":
        # backtick continuations: remove escape + newline
        i = data.find(escape, start, end)
        while i != -1:
            m = re.match(rb"`[ \t]*\r?\n", data[i:end])
            if m:
                cuts.append((i, i + m.end()))
            i = data.find(escape, i + 1, end)
        cuts.sort()
    for a, b in cuts:
        if a < cur:
            continue
        parts.append(data[cur:a])
        segs.append((n, cur, a - cur))
        n += a - cur
        cur = b
    parts.append(data[cur:end])
    segs.append((n, cur, end - cur))
    return Embedding(b"".join(parts), segs)


def _run(data: bytes, ins: _Instr, escape: bytes, stage: _Stage, out: Extraction, path: str) -> None:
    words = _json_array(data, ins, escape)
    if words is not None:
        v = version_from_pip_install([w.text for w in words])
        if v is not None:
            _add_pip_hint(out, stage, v, None)
        return
    if b"vllm" not in data[ins.args : ins.body_end] and b"VLLM_" not in data[ins.args : ins.body_end]:
        return
    # BuildKit flags before the command: --mount=..., --network=..., --security=...
    s = ins.args
    while True:
        m = re.match(rb"--[A-Za-z-]+=\S*[ \t]+", data[s : ins.end])
        if not m:
            break
        s += m.end()
    sub = _add_shell_launches(out, _script_of(data, ins, escape, s, ins.body_end), path, stage)
    if sub is None:
        return
    for h in sub.version_hints:
        _add_pip_hint(out, stage, h.version, h.span)


def _add_pip_hint(out: Extraction, stage: _Stage, version: str, span: Optional[Span]) -> None:
    if "$" in version:
        known = {**stage.globals, **{k: v for k, v in stage.vars.items() if v[0] is not None}}
        resolved, used = _substitute(version, known)
        if used and "$" not in resolved:
            out.version_hints.append(VersionHint(resolved, "dockerfile-arg", known[used[0]][1]))
        return
    out.version_hints.append(VersionHint(version, "pip-install", span))


def _jtoken(w: _JWord) -> Token:
    opaque = "$" in w.text and False  # exec form does no variable expansion
    return Token(
        text=w.text,
        span=Span(w.start, w.end),
        text_span=Span(*w.inner) if w.inner else None,
        opaque=opaque,
    )


def _stage_launches(data: bytes, st: _Stage, escape: bytes, out: Extraction, path: str) -> None:
    ep, cmd = st.entrypoint, st.cmd
    if ep is not None and ep[0] == "shell":
        _shell_form(data, ep[2], escape, st, out, path)
        return
    if ep is not None:
        ep_words: list[_JWord] = ep[1]
        cmd_words: list[_JWord] = cmd[1] if cmd is not None and cmd[0] == "exec" else []
        allw = ep_words + cmd_words
        found = find_vllm_command([w.text for w in allw])
        if found is not None:
            span_ins = cmd[2] if cmd_words else ep[2]
            _exec_launch(data, st, out, path, found, allw, ep[2], span_ins)
            return
        _exec_shell_c(data, allw, st, out, path)
        return
    if cmd is None:
        return
    starts_vllm = st.vllm_image and image_starts_vllm(st.image or "")
    if cmd[0] == "shell":
        if not starts_vllm:
            _shell_form(data, cmd[2], escape, st, out, path)
        return
    words = cmd[1]
    texts = [w.text for w in words]
    if starts_vllm:
        found = None
        if words and not texts[0].startswith("-"):
            found = find_vllm_command(texts)
        if found is None:
            from vllm_lint.frontends.commands import VllmCommand

            found = VllmCommand(f"docker:{st.image}", 0, [], st.image)
        _exec_launch(data, st, out, path, found, words, cmd[2], cmd[2])
        if found.args_start > 0 and out.launches and st.image:
            # the image's inherited ENTRYPOINT takes CMD as its arguments: `CMD ["vllm", "serve",
            # "m"]` runs `vllm serve vllm serve m` (VL111); the fix cuts `"vllm", "serve", `
            la = out.launches[-1]
            la.entry_words = la.replace_entry = None  # the image's ENTRYPOINT runs these words
            la.image_cmd = texts[:found.args_start]
            la.image_cmd_delete = Span(words[0].start, words[found.args_start].start) \
                if found.args_start < len(words) and not found.env else None
        return
    found = find_vllm_command(texts)
    if found is not None:
        _exec_launch(data, st, out, path, found, words, cmd[2], cmd[2])
        return
    _exec_shell_c(data, words, st, out, path)


def _exec_shell_c(data, words, st, out, path) -> None:
    """``["/bin/sh", "-c", "vllm serve ..."]``."""
    for k, w in enumerate(words[:-1]):
        base = w.text.rsplit("/", 1)[-1]
        if base in ("sh", "bash", "dash", "zsh") and k + 2 < len(words) and re.match(
            r"^-[a-zA-Z]*c[a-zA-Z]*$", words[k + 1].text
        ):
            inner = words[k + 2]
            script = inner.text.encode("utf-8")
            if len(script) != len(inner.pos):
                return
            _add_shell_launches(out, Embedding.from_positions(script, inner.pos), path, st)
            return


def _shell_form(data, ins, escape, st, out, path) -> None:
    _add_shell_launches(out, _script_of(data, ins, escape, ins.args, ins.end), path, st)


def _exec_launch(data, st, out, path, found, words: list[_JWord], ep_ins, span_ins) -> None:
    arg_words = words[found.args_start :]
    tokens = [_jtoken(w) for w in arg_words]
    env = list(st.env)
    for idx, name, value in found.env:
        w = words[idx]
        env.append(EnvAssign(name, None, value, Span(w.start, w.end), None, False, None))
    hints = list(st.hints)
    start = min([ep_ins.start, span_ins.start])
    end = max([ep_ins.end, span_ins.end])
    la = Launch(
        path=path,
        entry=found.entry,
        style="argv",
        span=Span(start, end),
        tokens=tokens,
        env=env,
        version_hints=hints,
    )
    if st.image:
        la.image = st.image
    word_of = {id(t): w for t, w in zip(tokens, arg_words)}
    all_words = list(words)

    def delete_tokens(toks: list[Token]) -> Optional[list[Edit]]:
        idxs = []
        for t in toks:
            w = word_of.get(id(t))
            if w is None:  # a copy, or a word before vLLM's options (the entry): match by span
                w = next((x for x in all_words if t.span is not None and Span(x.start, x.end) == t.span), None)
            if w is None:
                return None
            idxs.append(next(i for i, x in enumerate(all_words) if x is w))
        if not idxs:
            return None
        idxs.sort()
        lo, hi = idxs[0], idxs[-1]
        if idxs != list(range(lo, hi + 1)):
            return None
        same_array = lambda a, b: not re.search(rb"\]", data[a.end : b.start])  # noqa: E731
        if lo > 0 and same_array(all_words[lo - 1], all_words[lo]):
            s, e = all_words[lo - 1].end, all_words[hi].end
        elif hi + 1 < len(all_words) and same_array(all_words[hi], all_words[hi + 1]):
            s, e = all_words[lo].start, all_words[hi + 1].start
        else:
            s, e = all_words[lo].start, all_words[hi].end
        return [Edit(Span(s, e), "")]

    la.delete_tokens = delete_tokens
    if found.entry_start is not None:
        entry = words[found.entry_start:found.args_start]
        la.entry_words = [w.text for w in entry]
        la.replace_entry = word_replacer([_jtoken(w) for w in entry], delete_tokens)
    out.launches.append(la)


def _add_shell_launches(out: Extraction, script: Embedding, path: str, stage) -> Optional[Extraction]:
    """Launches and exported variables of a shell script inside an instruction (RUN, shell-form
    CMD/ENTRYPOINT, exec-form ``sh -c``); the launches inherit the stage's ENV and version hints.
    Returns the script's extraction (None when it does not parse)."""
    # (the shell front-end, with its readers of `docker build` and batch directives, is imported for
    # a Dockerfile running vLLM through a shell only: one on a vLLM image with an exec-form CMD does not)
    from vllm_lint.frontends import shell

    try:
        sub = shell.extract_script(script.text, path, script)  # (the script's text, in the file)
    except ParseError:
        return None
    for la in sub.launches:
        la.env = list(stage.env) + la.env
        la.version_hints = list(stage.hints) + la.version_hints
        out.launches.append(la)
    out.env.extend(sub.env)
    return sub


# ----------------------------------------------------------------------------- the format unit
# (the hooks of vllm_lint.frontends.base)


def comment_placements(lines: list[bytes], idx: int) -> list[int]:
    """No trailing comment: ``#`` starts a comment only at the beginning of a line
    (``CMD ["vllm", ...]  # x`` would no longer be JSON); --add-noqa puts a comment line above."""
    return []
