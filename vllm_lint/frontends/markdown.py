"""Markdown front-end: vLLM launches in code blocks of READMEs and docs.

Fenced blocks (```` ``` ```` or ``~~~``, any indentation, an unclosed fence runs to the end of
the file) are handed to the front-end for their language. Indented code blocks (CommonMark: four
columns past the margin or the open list item's content, after a blank line, a heading or a fence;
see :func:`indented_blocks`) are read as blocks with no language. A block indented inside a list item,
an admonition (``!!!``, ``???``) or an mkdocs tab (``=== "tab"``) is dedented first (the
indentation its lines share is cut, and offsets map back line by line; a deletion of whole lines
takes their indentation with them), so an indented YAML block with ``---`` parses:

* ``bash``, ``sh``, ``shell``, ``zsh``, ``ksh`` -> :func:`shell.extract_script`;
  ``console``, ``shell-session``, ``sh-session``, ``terminal`` (and any shell block whose first
  line starts with a ``$`` prompt) -> prompts (``$ ``, ``(venv) $ ``, ``user@host:~$ ``) are
  stripped, output lines dropped, ``\\``-continued lines kept (a ``> `` PS2 prompt stripped), and
  offsets mapped back through the stripping; the option lines after a broken continuation
  (``\\ `` or a blank line after ``\\``) are kept too, so that VL109 reports them. A console
  block without any prompt is read as commands;
* ``yaml``, ``yml`` -> :mod:`vllm_lint.frontends.yaml`;
* ``python``, ``py``, ``python3`` -> :mod:`vllm_lint.frontends.python` (a block whose first
  line is indented beyond the others is parsed under an ``if True:`` header);
* ``dockerfile``, ``Dockerfile``, ``containerfile`` -> :mod:`vllm_lint.frontends.dockerfile`;
* a block with no language (or ``text``, ``plain``...) is sniffed by content (:func:`_sniff`):
  ``FROM`` first -> Dockerfile, a ``$`` prompt first -> console, vLLM / OpenAI imports ->
  Python, a manifest's top-level keys -> YAML, else shell when it names ``vllm serve``.

Placeholders of documentation are opaque words (:mod:`~vllm_lint.frontends.doc_commands`): ``<model>``,
``[options]``, ``...`` and ``{{var}}``. In shell blocks they are filled to one word of the same
length before parsing (``<model>`` would be a redirection), and the words they touch are marked
opaque (``[options]`` and ``...`` as splats: any number of words); the options around them are
checked, the placeholders never judged nor rewritten. In YAML, Python and Dockerfile blocks a
value that is a placeholder is opaque.

Commands shown inline in the prose (`` `vllm serve m --max-model-len 8192` ``, with an argument)
are read as shell too.

Markdown inside a YAML string (vLLM recipes' ``guide: |``) is read by the YAML front-end through
this module (:func:`shift` maps the blocks' spans through the scalar).

A block with no version of its own (no image tag, ``FROM``, ``pip install vllm==X`` in it) takes the
exact release named by the prose that introduces it: the paragraphs since the previous block, then
its section's heading (``vLLM 0.8.5``, ``vllm==0.8.5``, ``vllm/vllm-openai:v0.8.5``; never a
range), as ``VersionHint(source="markdown-prose")``; see :class:`_Prose`.

A block's bytes are contiguous in the file, so the sub-front-end's spans are shifted exactly;
``delete_tokens`` is wrapped so its edits are shifted too. A block that its front-end cannot
parse is skipped with an informational ``VL002`` note; it never fails the Markdown file.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import Optional

from vllm_lint.foreign_launchers import launch_markers
from vllm_lint.frontends import doc_commands
from vllm_lint.frontends.embedding import Embedding, rebase
from vllm_lint.launch import Extraction, LineIndex, Note, ParseError, Span, VersionHint
from vllm_lint.record import lazy_re

FORMAT = "markdown"

__all__ = ["FORMAT", "might_contain_launch", "extract", "fenced_blocks", "indented_blocks", "code_blocks"]

_SHELL = {"bash", "sh", "shell", "zsh", "ksh", "shellscript", "bash-session"}
_CONSOLE = {"console", "shell-session", "sh-session", "terminal", "shellsession", "bash-session"}
_YAML = {"yaml", "yml"}
_PYTHON = {"python", "py", "python3", "py3"}
_DOCKER = {"dockerfile", "containerfile"}
_POWERSHELL = {"powershell", "ps1", "pwsh", "posh"}

_FENCE = re.compile(rb"^([ \t]*)(`{3,}|~{3,})[ \t]*([^\r\n]*)\r?$", re.M)  # (info: its end stripped after)
_PROMPT = re.compile(
    rb"^[ \t]*(?:\([^)\r\n]{0,60}\)[ \t]*)?(?:[\w.-]+@[\w.-]+(?::[^$#\s]*)?[ \t]*)?\$[ \t]"
)
_PS2 = re.compile(rb"^[ \t]*>[ \t]")
_OPTION_LINE = re.compile(rb"^[ \t]*(?:>[ \t]+)?-")


def might_contain_launch(data: bytes) -> bool:
    return b"vllm" in data or b"VLLM" in data or b"vLLM" in data


def _language(info: bytes) -> str:
    s = info.decode("utf-8", "replace").strip()
    if not s:
        return ""
    if s.startswith("{"):  # MyST: ```{code-block} bash  /  pandoc: ```{.bash}
        inner = s[1:].split("}", 1)
        head = inner[0].strip().lstrip(".")
        if head in ("code-block", "code", "sourcecode", "literalinclude"):
            rest = inner[1].split() if len(inner) > 1 else []
            return rest[0].lower() if rest else ""
        return head.split()[0].lower() if head else ""
    return re.split(r"[\s{,]", s, 1)[0].lower()


def fenced_blocks(data: bytes) -> list[tuple[str, int, int, int]]:
    """``(language, content_start, content_end, fence_line)`` for each fenced block (one pass: the
    fence lines are counted from the previous fence, not from the start of the file)."""
    out = []
    pos = 0
    n = len(data)
    line, counted_to = 1, 0  # the line number of offset counted_to
    while pos < n:
        m = _FENCE.search(data, pos)
        if not m:
            break
        fence = m.group(2)
        info = m.group(3).rstrip(b" \t")
        if fence[:1] == b"`" and b"`" in info:
            pos = m.end() + 1
            continue  # inline code, not a fence
        start = m.end()
        if start < n and data[start : start + 1] == b"\n":
            start += 1
        elif data[start : start + 2] == b"\r\n":
            start += 2
        line += data.count(b"\n", counted_to, m.start())
        counted_to = m.start()
        c = _closing_fence(fence).search(data, start)
        if c is None:
            end = n
            pos = n
        else:
            end = c.start()
            pos = c.end() + 1
        out.append((_language(info), start, end, line))
    return out


@lru_cache(maxsize=None)
def _closing_fence(fence: bytes) -> re.Pattern:
    """The line that closes a block opened by ``fence``: the same character, at least as many."""
    return re.compile(rb"^[ \t]*" + re.escape(fence[:1]) + rb"{" + str(len(fence)).encode()
                      + rb",}[ \t]*\r?$", re.M)


_LIST_ITEM = re.compile(rb"([-+*]|\d{1,9}[.)])(?:([ \t]+)|$)")  # after the line's indentation
_ATX_LINE = re.compile(rb"#{1,6}(?:[ \t]|$)")


def _columns(line: bytes) -> tuple[int, int]:
    """(width, bytes) of ``line``'s indentation: a tab reaches the next multiple of 4 columns."""
    col = i = 0
    while i < len(line) and line[i] in (0x20, 0x09):
        col = col + 4 - col % 4 if line[i] == 0x09 else col + 1
        i += 1
    return col, i


def indented_blocks(data: bytes, fenced: list[tuple[str, int, int, int]]) -> list[tuple[str, int, int, int]]:
    """``("", content_start, content_end, first_line)`` for each indented code block (CommonMark):
    lines indented 4 columns or more past the open list item's content (or the text's own margin,
    a docstring's indentation), starting after a blank line, a heading or a fence (an indented line
    continues a paragraph), with the blank lines between them; the end is the last line's break.
    ``fenced``: the fenced blocks, whose lines are never indented code."""
    lines = data.split(b"\n")
    fence_rows = _fence_rows(data, fenced)
    # the text's margin: 0 in a Markdown file; in a docstring's Markdown, the indentation its lines
    # but the first share, when its fences are indented that far too (a file whose later lines are
    # all indented code has its fences, if any, at the margin)
    margin = min((_columns(ln)[0] for ln in lines[1:] if ln.strip()), default=0)
    if margin and not all(_columns(lines[line - 1])[0] >= margin for _lang, _s, _e, line in fenced) or not fenced:
        margin = 0
    out = []
    pos = 0
    in_paragraph = False
    item_content: Optional[int] = None  # content column of the open list item
    block: Optional[list[int]] = None  # [start, end, first row] of the block being read
    for row, line in enumerate(lines):
        start, pos = pos, pos + len(line) + 1
        body = line.rstrip(b"\r")
        if fence_rows.get(row, False):
            if block:
                out.append(("", block[0], block[1], block[2]))
            block, in_paragraph = None, False
            continue
        if not body.strip():
            in_paragraph = False  # (a blank line inside a block joins it if an indented line follows)
            continue
        width, skip = _columns(body)
        base = margin if item_content is None else item_content
        if width >= base + 4 and (block is not None or not in_paragraph):
            if block is None:
                block = [start, start + len(body), row + 1]
            block[1] = start + len(body)
            continue
        if block is not None:
            out.append(("", block[0], block[1], block[2]))
            block = None
        text = body[skip:]
        item = _LIST_ITEM.match(text) if width < base + 4 else None
        if item is not None:
            gap = _columns(body[:skip] + text[:item.end()])[0] - width - len(item.group(1))
            # content column: after the marker and 1-4 spaces (5 or more: one, the rest is code)
            item_content = width + len(item.group(1)) + (gap if 1 <= gap <= 4 else 1)
            in_paragraph = bool(text[item.end():].strip())
        elif item_content is not None and width < item_content and not in_paragraph:
            item_content = None  # a line left of the item's content (not a lazy line) ends the list
            in_paragraph = not _ATX_LINE.match(text)
        else:
            in_paragraph = not _ATX_LINE.match(text)
    if block is not None:
        out.append(("", block[0], block[1], block[2]))
    return out


def _fence_rows(data: bytes, fenced: list[tuple[str, int, int, int]]) -> dict[int, bool]:
    """Rows (0-based) of the fenced blocks, their fence lines included."""
    rows: dict[int, bool] = {}
    for _lang, start, end, line in fenced:
        first = line - 1  # the opening fence's row
        last = first + 1 + data.count(b"\n", start, end)  # the closing fence's (or an unclosed one's last)
        for r in range(first, last + 1):
            rows[r] = True
    return rows


def code_blocks(data: bytes) -> list[tuple[str, int, int, int]]:
    """Fenced and indented code blocks, in order (see :func:`fenced_blocks`, :func:`indented_blocks`)."""
    fenced = fenced_blocks(data)
    if b"\n    " not in data and b"\n\t" not in data:
        return fenced  # (no line is indented enough)
    return sorted(fenced + indented_blocks(data, fenced), key=lambda b: b[1])


@lru_cache(maxsize=1)
def _layout(data: bytes) -> tuple[list[tuple[str, int, int, int]], list[int], list[int], list[int]]:
    """``data``'s fenced blocks, each block's first and closing row (0-based), and the offsets where
    its lines start: read once per file for the questions asked per finding (``embedded_at``,
    ``is_comment``)."""
    blocks = code_blocks(data)
    starts = LineIndex(data).starts
    firsts = [bisect_right(starts, start) - 1 for _lang, start, _end, _line in blocks]
    # a fenced block ends where its closing fence's row starts; an indented one at its last row's end
    lasts = [bisect_right(starts, end) - (1 if starts[bisect_right(starts, end) - 1] == end else 0)
             for _lang, _start, end, _line in blocks]
    return blocks, firsts, lasts, starts


# ------------------------------------------------------------------------------------------
# console blocks


_BLANKED = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))  # all but line breaks -> ' '


def shell_text(data: bytes) -> Optional[bytes]:
    """The code blocks a reader pastes into a shell or a shell runs (shell and console blocks,
    Dockerfile and YAML blocks, whose ``RUN`` lines and ``run:`` steps are shell; untagged blocks
    by their look), the rest blanked, offsets kept (the ``shell_text`` hook)."""
    keep = []
    for lang, start, end, _line in code_blocks(data):
        if lang in _UNTAGGED:
            lang = _sniff(_dedented(data[start:end], start).text)
        if lang in _SHELL or lang in _CONSOLE or lang in _DOCKER or lang in _YAML:
            keep.append((start, end))
    if not keep:
        return None
    out = bytearray(data.translate(_BLANKED))
    for start, end in keep:
        out[start:end] = data[start:end]
    return bytes(out)


def _strip_prompts(block: bytes, base: int) -> Embedding:
    """Commands of a console transcript (each line after its prompt), in the file."""
    script = bytearray()
    segs: list[tuple[int, int, int]] = []  # (script offset, file offset, length)
    cont = False  # the line before continues the command (or ends it with a broken continuation)
    broken = False  # ... and was a blank line after a `\`: only option lines still belong to it
    pos = 0
    for line in block.splitlines(keepends=True):
        body = line.rstrip(b"\r\n")
        m = _PROMPT.match(body)
        skip = None
        if m:
            skip = m.end()
        elif cont and (not broken or _OPTION_LINE.match(body)):
            p2 = _PS2.match(body)
            skip = p2.end() if p2 else 0
        if skip is not None:
            # the line's feed is the script's (a CRLF line's end maps to its CR, as a run's end)
            lf = line[len(body):len(body) + 1] == b"\n"
            segs.append((len(script), base + pos + skip, len(body) - skip + lf))
            script += body[skip:]
            script += b"\n"
            # `\ ` (a space after the backslash) and a blank line after `\` end the command in
            # bash; the lines after them are kept so that the shell front-end reports the options
            # they cut off (VL109)
            if body.rstrip(b" \t").endswith(b"\\"):
                cont, broken = True, False
            elif cont and not body.strip():
                broken = True
            else:
                cont = broken = False
        else:
            cont = broken = False
        pos += len(line)
    return Embedding(bytes(script), segs)


# ------------------------------------------------------------------------------------------


def extract(data: bytes, path: str) -> Extraction:
    out = Extraction()
    blocks = code_blocks(data)
    images: dict = {}  # built by one block, run by a later one
    prose: Optional[_Prose] = None
    for k, (lang, start, end, _line) in enumerate(blocks):
        block = data[start:end]
        if b"vllm" not in block and b"VLLM" not in block and b"servingEngineSpec" not in block \
                and b"LLM(" not in block and b"EngineArgs(" not in block:
            continue  # (a documentation snippet may call LLM(...) with its import left out)
        n_launches, n_hints = len(out.launches), len(out.version_hints)
        try:
            _block(lang, block, start, path, out, images)
            new = out.launches[n_launches:]
            if new and len(out.version_hints) == n_hints and not any(la.version_hints for la in new):
                if prose is None:
                    prose = _Prose(data, blocks)
                hint = prose.hint_for(k)
                if hint is not None:
                    for la in new:
                        la.version_hints = [hint]
        except ParseError as e:  # (no line in the message: the finding is placed on the block, and a
            # line counted here is relative to the docstring or YAML string that embeds this Markdown)
            out.notes.append(Note(
                f"```{lang} block could not be parsed and was skipped: {e.message}",
                span=Span(start, end),
            ))
        except (RecursionError, ValueError) as e:  # a front-end's own limit
            out.notes.append(Note(
                f"```{lang} block was skipped: {type(e).__name__}",
                span=Span(start, end),
            ))
    if b"vllm serve" in data or b"-m vllm" in data or b" run " in data:
        _inline(data, blocks, path, out, images)
    if b"__version__" in data:
        _printed_version(data, out)
    if out.launches and not out.version_hints and b"install" in data:
        _inline_installs(data, blocks, out)
    if b"${" in data or b"$V" in data:
        _images_from_env_blocks(data, blocks, out)
    return out


_ENV_ASSIGN = re.compile(rb"""(?m)^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=("[^"\n]*"|'[^'\n]*'|[^\s#'"]+)""")
_IMAGE_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}$]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _images_from_env_blocks(data: bytes, blocks: list[tuple[str, int, int, int]], out: Extraction) -> None:
    """A guide that shows its ``.env`` in one block (``VLLM_IMAGE_VERSION=v0.11.2``) and uses it in
    another's image (``image: vllm/vllm-openai:${VLLM_IMAGE_VERSION}``): the launch's release, at
    the value (a variable the blocks set to two values names nothing)."""
    from vllm_lint.images import image_is_vllm, version_from_image

    values: dict[str, list[tuple[str, int, int]]] = {}
    for _lang, start, end, _line in blocks:
        for m in _ENV_ASSIGN.finditer(data, start, end):
            raw = m.group(2)
            quoted = raw[:1] in (b'"', b"'") and raw[-1:] == raw[:1] and len(raw) >= 2
            value = (raw[1:-1] if quoted else raw).decode("utf-8", "replace")
            at = m.start(2) + (1 if quoted else 0)
            values.setdefault(m.group(1).decode(), []).append((value, at, at + len(value.encode())))
    for la in out.launches:
        container = getattr(la, "container", None)
        image = (container.image if container is not None else None) or getattr(la, "image", None)
        if la.version_hints or not image or "$" not in image:
            continue
        used: list[tuple[str, int, int]] = []

        def fill(m: "re.Match[str]") -> str:
            key, default = m.group(1) or m.group(3), m.group(2)
            got = {v[0] for v in values.get(key, [])}
            if len(got) == 1:
                used.append(values[key][0])
                return next(iter(got))
            if default is not None and not got:
                return default
            raise KeyError(key)

        try:
            filled = _IMAGE_VAR.sub(fill, image)
        except KeyError:
            continue
        tag = version_from_image(filled) if image_is_vllm(filled) else None
        if tag and used:
            value, a, b = next((u for u in used if tag in u[0]), used[0])
            k = value.find(tag)
            span = Span(a + k, a + k + len(tag.encode())) if k >= 0 else Span(a, b)
            la.version_hints = [VersionHint(tag, "image-tag", span, filled)]


# `>>> print(vllm.__version__)` then its output, `'0.15.0'` (a guide showing the release its
# environment provides: an HPC centre's module)
_PRINTED = re.compile(rb"vllm\.__version__\)?[ \t]*\r?\n[ \t]*(?:Out\[\d+\]:[ \t]*)?['\"]?(v?\d+\.\d+\.\d+[\w.+]*?)['\"]?[ \t]*\r?\n")


def _printed_version(data: bytes, out: Extraction) -> None:
    """A printed ``vllm.__version__`` names the release of the file's launches (after their own
    hints and their block's prose): a file-level hint."""
    m = _PRINTED.search(data)
    if m:
        out.version_hints.append(VersionHint(m.group(1).decode(), "printed vllm.__version__",
                                             Span(m.start(1), m.end(1))))


def _inline(data: bytes, blocks: list[tuple[str, int, int, int]], path: str, out: Extraction,
            images: Optional[dict] = None) -> None:
    """Commands shown inline in the prose (`` `vllm serve m --max-model-len 8192` ``) or on a line
    of their own outside any block (``_prose_commands``), each read as shell on its own bytes; a
    mention without an argument (`` `vllm serve` ``) is none."""
    pos = 0
    prose = []
    for _lang, start, end, _line in blocks:
        prose.append((pos, data.rfind(b"\n", 0, max(0, start - 1)) + 1))  # up to the fence line
        nl = data.find(b"\n", end)
        pos = len(data) if nl < 0 else nl + 1
    prose.append((pos, len(data)))
    for a, b in prose:
        if b <= a:
            continue
        inline = [(a + s, a + e, False) for s, e in doc_commands.inline_commands(data[a:b])]
        for s, e, prose_line in sorted(inline + [(s, e, True) for s, e in _prose_commands(data, a, b)]):
            code = data[s:e]
            n = len(out.launches)
            _shell(code, Embedding.identity(code, s), path, out, images)
            for la in out.launches[n:] if prose_line else ():
                la.read_as = "; ".join(x for x in ("a command on its own line of prose, outside any code block",
                                                   la.read_as) if x)


_INLINE_CODE = re.compile(rb"(?<!`)`([^`\n]{1,300})`(?!`)")


def _inline_installs(data: bytes, blocks: list[tuple[str, int, int, int]], out: Extraction) -> None:
    """An install of a release shown inline in the prose (`` `pip install vllm==0.8.5` `` under
    "Install"), the guide naming no release in its blocks: the release of the launches after it
    that name none of their own (a downgrade advised after a launch is not what it runs)."""
    from vllm_lint.frontends.commands import version_from_pip_install

    ends = [end for _lang, _start, end, _line in blocks]
    starts = [start for _lang, start, _end, _line in blocks]
    for m in _INLINE_CODE.finditer(data):
        k = bisect_right(starts, m.start()) - 1
        if k >= 0 and m.start() < ends[k]:
            continue  # (inside a code block: its front-end read it)
        code = m.group(1)
        if not _INSTALLS_VLLM.search(code):
            continue
        v = version_from_pip_install(code.decode("utf-8", "replace").replace('"', " ").replace("'", " ").split())
        if v is None or not re.fullmatch(r"v?\d+\.\d+(?:\.\d+)?(?:\.post\d+)?", v):
            continue  # (an exact release only: a range or a wheel URL says less)
        at = code.find(v.encode())
        hint = VersionHint(v, "pip-install", Span(m.start(1) + at, m.start(1) + at + len(v)) if at >= 0 else None)
        for la in out.launches:
            if not la.version_hints and la.span.start > m.end():
                la.version_hints = [hint]
        return


# a command line on its own line of prose, outside any code block (``docker run ... vllm/vllm-openai
# --model m`` under "run with these commands"): at most three spaces in (four make a code block)
_PROSE_COMMAND = re.compile(
    rb"(?m)^ {0,3}(?:\$[ \t]+)?(?=(?:sudo[ \t]+)?(?:docker|podman)[ \t]+(?:container[ \t]+)?run\b|vllm[ \t]+serve\b"
    rb"|python3?[ \t]+-m[ \t]+vllm\.entrypoints)")
_SENTENCE_END = re.compile(rb"[.,;:!?)][ \t]*$")


def _prose_commands(data: bytes, a: int, b: int) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each command line in prose ``data[a:b]`` (with its ``\\``
    continuation lines) that reads as a command, not a sentence: an option among its words, no
    backquote (an inline command is read as one), at most three words that are neither an option
    nor an option's value, and no sentence punctuation at its end."""
    found = []
    for m in _PROSE_COMMAND.finditer(data, a, b):
        s = m.end()
        e = s
        while True:
            nl = data.find(b"\n", e, b)
            line_end = b if nl < 0 else nl
            e = line_end
            if not data[:line_end].rstrip(b"\r").endswith(b"\\") or nl < 0:
                break
            e = nl + 1
        code = data[s:e].rstrip(b"\r")
        if b"`" in code or _SENTENCE_END.search(code):
            continue
        words = code.replace(b"\\\r\n", b" ").replace(b"\\\n", b" ").split()
        bare = option = 0
        after_option = False
        for w in words[2:]:
            if w.startswith(b"-"):
                option += 1
                after_option = b"=" not in w
            elif after_option:
                after_option = False
            else:
                bare += 1
        if option and bare <= 3:
            found.append((s, s + len(code)))
    return found


# ------------------------------------------------------------------------------------------
# the release the prose around a block names

_REL = r"v?\d+\.\d+\.\d+(?:\.post\d+)?"
_REL_END = r"(?![\w+*-]|\.[\w*])"  # not 0.8.5.x, 0.8.5+, 0.8.5-rc, 0.8.5.* (a final '.' is fine)
_PROSE_RELEASE = re.compile(
    r"(?<![\w./-])vllm(?:\s+version)?\s+(?P<a>" + _REL + ")" + _REL_END
    + r"|(?<![\w./-])vllm\s*==\s*(?P<b>" + _REL + ")" + _REL_END
    + r"|(?P<img>(?<![\w./:-])[\w.:/-]*vllm[\w.-]*):(?P<c>" + _REL + ")" + _REL_END,
    re.I,
)
# a mention that bounds a range rather than naming the release in use
_RANGE_BEFORE = re.compile(
    r"(?:>=?|<=?|~=|\^|\bat least|\bsince|\bbefore|\bafter|\buntil|\bprior to|\bolder than|"
    r"\bnewer than|\bup to|\bfrom|\bthan|\bpre|\bbelow|\babove)\s*$", re.I)
# any version-like mention of vLLM; one that is not an exact release (``vllm>=0.8``, ``vLLM 0.9``,
# ``vllm==0.8.*``, ``vLLM 0.8.5+``) ends the search
_PROSE_VAGUE = re.compile(
    r"(?<![\w./-])vllm(?:\s*(?:[<>~!^]=?|==?)\s*|(?:\s+version)?\s+)v?\d+(?:\.\d+)*", re.I)
_RANGE_AFTER = re.compile(
    r"^\s*(?:\+|(?:or|and) (?:later|newer|above|higher|up|greater|earlier|older|below|lower)|"
    r"onwards|and beyond|(?:-|–|—|to|through)\s*v?\d)", re.I)
_ATX = re.compile(rb"^ {0,3}(#{1,6})(?:[ \t]|\r?$)")
_SETEXT = re.compile(rb"^ {0,3}(=+|-+)[ \t]*\r?$")


class _Prose:
    """Headings and paragraphs between fenced blocks, to find the exact vLLM release that the
    prose introducing a block names (``vLLM 0.8.5``, ``vllm==0.8.5``, ``vllm/vllm-openai:v0.8.5``).

    For block ``k`` the search runs backwards over the paragraphs between the previous fenced
    block and this one, then the heading of the block's section (a paragraph before an earlier
    block introduces that block, not this one). The first paragraph or heading that names exactly
    one release gives it; one that names two releases or a range (``vLLM 0.8.5 or later``,
    ``>= 0.8.5``, ``from 0.8.5 to 0.9.0``) ends the search with no hint. The section's heading
    ends the search either way."""

    def __init__(self, data: bytes, blocks: list[tuple[str, int, int, int]]):
        self.data = data
        # elements in file order: ("para", s, e) / ("heading", s, e) / ("block", k)
        self.elems: list[tuple] = []
        self.block_at: dict[int, int] = {}
        pos = 0
        for k, (_lang, start, end, _line) in enumerate(blocks):
            open_start = data.rfind(b"\n", 0, max(0, start - 1)) + 1
            if open_start < pos:
                open_start = pos
            self._text(pos, open_start)
            self.block_at[k] = len(self.elems)
            self.elems.append(("block", k))
            close_end = data.find(b"\n", end)
            pos = len(data) if close_end == -1 or end >= len(data) else close_end + 1
        self._text(pos, len(data))
        # the heading at or before each element: past a block only headings count, and the walk
        # jumps there (a file of many blocks and no heading stays linear)
        self.heading_at_or_before: list[int] = []
        last = -1
        for j, el in enumerate(self.elems):
            if el[0] == "heading":
                last = j
            self.heading_at_or_before.append(last)

    def _text(self, s: int, e: int) -> None:
        data = self.data
        para: Optional[list[int]] = None  # [start, end]
        i = s
        while i < e:
            nl = data.find(b"\n", i, e)
            le = e if nl == -1 else nl + 1
            line = data[i:le].rstrip(b"\r\n")
            if not line.strip():
                if para:
                    self.elems.append(("para", para[0], para[1]))
                para = None
            elif _ATX.match(line):
                if para:
                    self.elems.append(("para", para[0], para[1]))
                para = None
                self.elems.append(("heading", i, i + len(line)))
            elif para and _SETEXT.match(line):
                self.elems.append(("heading", para[0], para[1]))  # the underlined text
                para = None
            elif para:
                para[1] = i + len(line)
            else:
                para = [i, i + len(line)]
            i = le
        if para:
            self.elems.append(("para", para[0], para[1]))

    def releases(self, s: int, e: int) -> Optional[list[tuple[str, int, int]]]:
        """``(release, start, end)`` named in ``[s, e)``; None when a range is mentioned."""
        from vllm_lint.frontends.commands import image_is_vllm

        text = self.data[s:e].decode("utf-8", "replace")
        ascii_only = text.isascii()

        def off(i: int) -> int:  # character index -> file offset
            return s + i if ascii_only else s + len(text[:i].encode("utf-8", "replace"))

        found = []
        exact_at: set[int] = set()
        for m in _PROSE_RELEASE.finditer(text):
            g = "a" if m.group("a") else "b" if m.group("b") else "c"
            if g == "c" and not image_is_vllm(m.group("img")):
                continue
            if g != "c" and (_RANGE_BEFORE.search(text[max(0, m.start() - 20):m.start()])
                             or _RANGE_AFTER.match(text[m.end():m.end() + 30])):
                return None
            if g == "c" and _RANGE_AFTER.match(text[m.end():m.end() + 30]):
                return None
            found.append((m.group(g), off(m.start(g)), off(m.end(g))))
            exact_at.add(m.start())
        for m in _PROSE_VAGUE.finditer(text):
            if m.start() not in exact_at:
                return None
        return found

    def hint_for(self, k: int) -> Optional[VersionHint]:
        i = self.block_at[k] - 1
        while i >= 0:
            el = self.elems[i]
            if el[0] == "block":  # its paragraphs introduce it: only the section's heading is left
                i = self.heading_at_or_before[i]
                continue
            i -= 1
            rel = self.releases(el[1], el[2])
            if rel is None:
                return None
            distinct = {r.lstrip("vV") for r, _s, _e in rel}
            if len(distinct) > 1:
                return None
            if rel:
                r, rs, re_ = rel[0]
                return VersionHint(r, "markdown-prose", Span(rs, re_))
            if el[0] == "heading":
                return None
        return None


def _dedented(block: bytes, base: int) -> Embedding:
    """A block's text with the indentation its lines share removed (a block inside a list item, an
    admonition ``!!!``/``???`` or an mkdocs tab ``=== "tab"``), in the file: each line keeps its
    bytes after the cut, so spans map line by line."""
    lines = block.splitlines(keepends=True)
    cut = None
    for line in lines:
        if line.strip():
            n = len(line) - len(line.lstrip(b" \t"))
            cut = n if cut is None else min(cut, n)
    cut = cut or 0
    if cut:  # only a prefix all lines share, byte for byte (never a tab for spaces)
        first = next(line for line in lines if line.strip())[:cut]
        while cut and not all(not line.strip() or line.startswith(first[:cut]) for line in lines):
            cut -= 1
    return Embedding.dedent(block, base, cut)


# a block with no language (or ``text``): what its content is
# an install command of vllm in an untagged block (`python3 -m pip install vllm==0.4.3 torch==2.3.0`)
_INSTALLS_VLLM = re.compile(rb"(?m)^[^\n]*?\b(?:pip3?|uv)[ \t]+(?:install|add)[ \t][^\n]*?(?<![\w/.-])vllm"
                            rb"(?:\[[^\]\n]*\])?[ \t]*[=<>~]")
_UNTAGGED = {"", "text", "txt", "plain", "plaintext", "none", "code", "cli", "command"}
_ELISION = re.compile(rb"(?m)^[ \t]*(?:\.\.\.|\xe2\x80\xa6)[ \t]*$")
_SNIFF_DOCKER = re.compile(rb"\A(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*(?:ARG\s[^\n]*\n\s*)*FROM\s+\S")
_SNIFF_YAML = re.compile(rb"^(?:apiVersion|kind|services|spec|containers|command|args|image|envs?|"
                         rb"run|setup|resources|model|engine_kwargs|servingEngineSpec):[ \t]*(?:\S.*)?$", re.M)
_SNIFF_YAML_ITEM = re.compile(rb"^[ \t]*- ", re.M)
_SNIFF_PYTHON = re.compile(rb"^(?:from vllm\b|import vllm\b|from openai import|import openai\b)|"
                           rb"^\w+ = (?:LLM|AsyncEngineArgs|EngineArgs)\(", re.M)


def _sniff(text: bytes) -> str:
    """The language of an untagged block's (dedented) text: a Dockerfile (``FROM`` first), a YAML
    manifest (top-level keys of one), Python (imports vLLM or a client), a console transcript (a
    ``$`` prompt first) or else shell."""
    if _SNIFF_DOCKER.match(text):
        return "dockerfile"
    first = next((ln for ln in text.splitlines() if ln.strip()), b"")
    if _PROMPT.match(first):
        return "console"
    if _SNIFF_PYTHON.search(text):
        return "python"
    if _SNIFF_YAML.search(text) and not re.search(rb"^\s*(?:vllm|python3?|docker|export)\s", text, re.M):
        return "yaml"
    return "sh"


def _block(lang: str, block: bytes, start: int, path: str, out: Extraction, images: Optional[dict] = None) -> None:
    lines = _dedented(block, start)
    text = lines.text
    if lang in _UNTAGGED:
        lang = _sniff(text)
        if lang == "sh" and b"vllm serve" not in text and b"vllm.entrypoints" not in text \
                and b"dynamo.vllm" not in text and b"vllm bench" not in text \
                and not any(m in text for m in launch_markers()) and not _INSTALLS_VLLM.search(text):
            return  # (an untagged block that installs vllm is read for its pin: the guide's release)
    first = next((ln for ln in text.splitlines() if ln.strip()), b"")
    if lang in _CONSOLE or (lang in _SHELL and _PROMPT.match(first)):
        if any(_PROMPT.match(ln) for ln in text.splitlines()):
            prompts = _strip_prompts(block, start)
            _shell(prompts.text, prompts, path, out, images)
            return
        lang = "sh"  # a console block without prompts: the commands alone
    if lang in _SHELL or lang in _CONSOLE:
        _shell(text, lines, path, out, images)
        return
    if lang in _POWERSHELL:
        # PowerShell continues a line with a backtick; a block whose lines continue with a `\`
        # (a bash command pasted under the label, a path's `\` never ends a line) is shell
        if _BASH_CONTINUED.search(text) and not _BACKTICK_CONTINUED.search(text):
            _shell(text, lines, path, out, images)
        else:
            from vllm_lint.frontends.powershell import as_shell

            _shell(as_shell(text), lines, path, out, images)
        return
    n = len(out.launches)
    if lang in _YAML:
        from vllm_lint.frontends import yaml as yaml_fe

        # a line of only `...` elides part of a manifest in documentation (as YAML it would end
        # the document): blanked, offsets kept
        text = _ELISION.sub(lambda m: b" " * len(m.group(0)), text)
        try:
            rebase(yaml_fe.extract(text, path), lines, out)
        except ParseError:
            if not _yaml_and_shell(text, lines, path, out):
                raise
    elif lang in _PYTHON:
        from vllm_lint.frontends import python as python_fe

        prefix = b""
        if first[:1] in (b" ", b"\t"):  # indented beyond the block's other lines
            prefix = b"if True:\n"
        rebase(python_fe.extract(prefix + text, path), lines.prefixed(prefix), out)
    elif lang in _DOCKER:
        from vllm_lint.frontends import dockerfile as docker_fe

        rebase(docker_fe.extract(text, path), lines, out)
    doc_commands.mark_values(out.launches[n:])


_BASH_CONTINUED = lazy_re(rb"[ \t]\\\r?\n[ \t]")  # ` \` ending a line, the next line indented
_BACKTICK_CONTINUED = lazy_re(rb"`[ \t]*\r?$", re.M)

_HEREDOC_LINE = re.compile(rb"^[^\s#-][^\n#]*<<-?[ \t]*['\"]?[A-Za-z_]\w*['\"]?[ \t]*$", re.M)
_YAML_LINE = re.compile(rb"^(?:[ \t]|-|#|---|[^\s:]+:(?:[ \t]|$))")


def _yaml_and_shell(text: bytes, lines: Embedding, path: str, out: Extraction) -> bool:
    """A ```yaml block that YAML does not read whole: manifests with shell around them (``kubectl
    apply -f - <<EOF``, ``cat <<EOF | kubectl apply -f -``, ``EOF``, ``kubectl get pods``). Each
    part read as what it is, offsets kept: first manifests then shell from the first heredoc on
    (the shell front-end reads the heredoc's manifest); else every top-level line that is no YAML
    (no key, item, comment or document marker) ends a document and is read as shell, the rest as
    YAML documents. False when neither reads (the block's parse error stands)."""
    from vllm_lint.frontends import yaml as yaml_fe

    cut = _shell_tail(text)
    if cut is not None:
        try:
            found = yaml_fe.extract(_blanked(text, cut, len(text)), path)
        except ParseError:
            pass
        else:
            rebase(found, lines, out)
            _shell(_blanked(text, 0, cut), lines, path, out)
            return True
    shell_lines = [m for m in _TOP_LINE.finditer(text) if not _YAML_LINE.match(m.group(0))]
    if not shell_lines:
        return False
    documents, script, pos = [], [], 0
    for m in shell_lines:
        documents.append(text[pos:m.start()])
        script.append(_spaces(text[pos:m.start()]))
        n = m.end() - m.start()
        documents.append(b"---" + b" " * (n - 3) if n >= 3 else b" " * n)  # (ends the document before)
        script.append(m.group(0))
        pos = m.end()
    documents.append(text[pos:])
    script.append(_spaces(text[pos:]))
    try:
        found = yaml_fe.extract(b"".join(documents), path)
    except ParseError:
        return False
    rebase(found, lines, out)
    _shell(b"".join(script), lines, path, out)
    return True


_TOP_LINE = re.compile(rb"^[^\s\n].*$", re.M)


def _shell_tail(text: bytes) -> Optional[int]:
    """Where the shell part of a YAML block starts: the first line that opens a heredoc, with the
    command lines just before it (no YAML key, item or comment); None without one."""
    m = _HEREDOC_LINE.search(text)
    if m is None:
        return None
    cut = m.start()
    while cut > 0:
        prev = text.rfind(b"\n", 0, cut - 1) + 1
        line = text[prev:cut - 1]
        if not line.strip() or _YAML_LINE.match(line):
            break
        cut = prev
    return cut


def _spaces(part: bytes) -> bytes:
    """``part`` blanked, its line breaks kept."""
    return re.sub(rb"[^\n]", b" ", part)


def _blanked(text: bytes, start: int, end: int) -> bytes:
    """``text`` with ``[start, end)`` blanked (line breaks kept, so offsets and lines are too)."""
    return text[:start] + re.sub(rb"[^\n]", b" ", text[start:end]) + text[end:]


def _shell(script: bytes, emb: Embedding, path: str, out: Extraction, images: Optional[dict] = None) -> None:
    """Shell text of the document; ``images``: the images its earlier blocks built from vLLM's
    (``docker build -t vllm ...`` in one block, ``docker run vllm ...`` in a later one)."""
    from vllm_lint.frontends import shell

    if b"\r\n" in script:
        # a document's CRLF line ends are not the command's: what a reader copies ends its lines in
        # LF (a shell script's `\` + CRLF would end the command, here it continues it)
        keep = [i for i in range(len(script)) if not (script[i] == 13 and script[i + 1:i + 2] == b"\n")]
        script = bytes(script[i] for i in keep)
        emb = Embedding.from_positions(script, keep).compose(emb)
    filled, regions = doc_commands.fill(script)
    ex = shell.extract_script(filled, path, emb, images=images)
    if regions:
        doc_commands.mark(ex, regions, emb)
    _prose_tails(ex)
    out.launches.extend(ex.launches)
    out.env.extend(ex.env)
    out.version_hints.extend(ex.version_hints)
    out.notes.extend(ex.notes)


_PROSE_WORD = re.compile(r"^[A-Za-z]+$")


def _prose_tails(ex: Extraction) -> None:
    """A documented command that ends in words of prose (``--dtype=bfloat16 other vLLM OpenAI
    server arguments``): three or more plain words at its end stand for options the reader adds,
    as ``[options]`` does; they become one unknown splat, not words vLLM would be given."""
    for la in ex.launches:
        toks = la.tokens
        k = len(toks)
        while k > 0 and not toks[k - 1].opaque and _PROSE_WORD.match(toks[k - 1].text):
            k -= 1
        if len(toks) - k >= 3:
            for t in toks[k:]:
                t.opaque, t.splat, t.text_span = True, True, None
            la.opaque = True


# ----------------------------------------------------------------------------- the format unit
# (the hooks of vllm_lint.frontends.base: the formats a fenced block holds)


def embedded_at(data: bytes, row0: int) -> Optional[tuple[str, int, int]]:
    """(format, first row, end row exclusive) of the fenced block holding row ``row0``, when its
    language takes ``#`` comments; None outside a block or in another language's."""
    blocks, firsts, lasts, _starts = _layout(data)
    k = bisect_right(firsts, row0) - 1  # (blocks are disjoint and in order: the last to start at or before)
    if k < 0 or not row0 < lasts[k]:
        return None
    lang, first, last = blocks[k][0], firsts[k], lasts[k]
    if lang in _CONSOLE or lang in _SHELL or lang in _POWERSHELL or not lang:
        return "shell", first, last
    if lang in _YAML:
        return "yaml", first, last
    if lang in _PYTHON:
        return "python", first, last
    if lang in _DOCKER:
        return "dockerfile", first, last
    return None


def is_comment(data: bytes, offset: int) -> bool:
    """In a YAML block, YAML's answer read in the block's own text (a ``#`` inside a quoted
    string there is part of the string); elsewhere a ``#`` starts a comment."""
    starts = _layout(data)[3]
    row0 = bisect_right(starts, offset) - 1
    block = embedded_at(data, row0)
    if block is None or block[0] != "yaml":
        return True
    from . import yaml

    _fmt, first, end = block
    stop = starts[end] if end < len(starts) else len(data)
    return yaml.is_comment(data[starts[first]:stop], offset - starts[first])


def suppression_rows(index, row0: int) -> list[int]:
    """In a YAML block, YAML's rows (a comment on a block scalar's header line, after a
    multi-line quoted scalar), read in the block's own text."""
    block = embedded_at(index.data, row0)
    if block is None or block[0] != "yaml":
        return []
    from vllm_lint.launch import LineIndex

    from . import yaml

    _fmt, first, end = block
    stop = index.starts[end] if end < len(index.starts) else len(index.data)
    own = LineIndex(index.data[index.starts[first]:stop])
    return [first + r for r in yaml.suppression_rows(own, row0 - first)]
