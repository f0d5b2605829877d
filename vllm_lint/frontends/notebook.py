"""Jupyter notebooks (``*.ipynb``): vLLM launches in code cells (``LLM(...)``, ``subprocess``
command lines), in their shell lines (``!vllm serve m --port 8000``, ``%%bash`` / ``%%sh``
cells) and in Markdown cells' fenced blocks.

The notebook is JSON; it is parsed with the YAML front-end's parser (JSON is YAML's flow style),
which gives each ``source`` string's position, and a cell's text (its ``source`` list joined) maps
every byte back into the JSON string that spells it (escapes such as ``\\n`` and ``\\"`` have no
1:1 bytes: a fix over them is not offered). Python lines of a code cell are read by the Python
front-end (shell and magic lines blanked), ``!`` lines by the shell front-end, Markdown cells by
the Markdown front-end. The notebook's JSON has no comments: ``--add-noqa`` skips it and says so
(``COMMENTS``); a fixed notebook must still load as JSON (:func:`parse_check`).
"""

from __future__ import annotations

import re
from typing import Optional

from vllm_lint.frontends.embedding import Embedding, rebase
from vllm_lint.launch import Extraction, ParseError

FORMAT = "notebook"
SUFFIXES = (".ipynb",)
COMMENTS = False

__all__ = ["FORMAT", "SUFFIXES", "COMMENTS", "might_contain_launch", "extract", "parse_check", "shell_text"]

_MAGIC_SHELL = re.compile(rb"\A[ \t]*%%(?:bash|sh|script[ \t]+(?:ba)?sh)\b[^\n]*\n")


def might_contain_launch(data: bytes) -> bool:
    return b"vllm" in data or b"VLLM_" in data or b"LLM(" in data


def _cell_text(pieces: list[Embedding]) -> Embedding:
    """A cell's text (its ``source`` strings joined) in the file."""
    text = bytearray()
    segs: list[tuple[int, int, int]] = []
    for piece in pieces:
        segs.extend((len(text) + v, f, n) for v, f, n in piece.segments)
        text += piece.text
    return Embedding(bytes(text), segs)


def _blank(text: bytes, keep) -> bytes:
    """``text`` with the lines ``keep(line)`` refuses blanked (line breaks kept)."""
    out = bytearray()
    for line in text.splitlines(keepends=True):
        body = line.rstrip(b"\r\n")
        out += (body if keep(body) else b" " * len(body)) + line[len(body):]
    return bytes(out)


def extract(data: bytes, path: str) -> Extraction:
    from vllm_lint.frontends.json import require_json

    if not data.strip():
        return Extraction()
    require_json(data, "notebook JSON")
    from vllm_lint.frontends import markdown, python, shell
    from vllm_lint.frontends.yaml.loader import ScalarNode, SequenceNode
    from vllm_lint.frontends.yaml.nodes import get, text as node_text
    from vllm_lint.frontends.yaml.text import YamlText

    out = Extraction()
    f = YamlText(data, path, Extraction())
    docs = f.parse()
    cells = get(docs[0], "cells") if docs else None
    earlier: list[Embedding] = []  # the code cells before this one (a name one of them binds)
    for cell in (cells.value if isinstance(cells, SequenceNode) else []):
        kind = node_text(get(cell, "cell_type"))
        src = get(cell, "source")
        pieces = [src] if isinstance(src, ScalarNode) else list(src.value) if isinstance(src, SequenceNode) else []
        t = _cell_text([f.smap(piece) for piece in pieces if isinstance(piece, ScalarNode)])
        text = t.text
        if kind == "code":
            earlier.append(t)
        if b"vllm" not in text and b"VLLM_" not in text and b"LLM(" not in text:
            continue
        try:
            if kind == "markdown":
                rebase(markdown.extract(text, path), t, out)
            elif kind == "code":
                magic = _MAGIC_SHELL.match(text)
                if magic:
                    script = b" " * magic.end() + text[magic.end():]
                    _add(out, shell.extract_script(script, path, t))
                    continue
                script = _blank(text, lambda ln: ln.lstrip().startswith(b"!"))
                script = re.sub(rb"(?m)^([ \t]*)!", lambda mm: mm.group(1) + b" ", script)
                if b"!" in text:  # (each `!` line its own shell, `$name` IPython's: no variable's value read)
                    _add(out, shell.extract_script(script, path, t, resolve=False))
                code = _blank(text, lambda ln: not ln.lstrip().startswith((b"!", b"%")))
                n = len(out.launches)
                rebase(python.extract(code, path), t, out)
                for la in out.launches[n:]:
                    if "image_name" in la.context:
                        _earlier_image(la, la.context.pop("image_name"), earlier[:-1])
        except ParseError as e:
            from vllm_lint.launch import Note, Span

            line = data.count(b"\n", 0, f.pos(cell.start_mark.index)) + 1
            out.notes.append(Note(f"{kind} cell at line {line} could not be parsed and was skipped: {e.message}",
                                  span=Span(f.pos(cell.start_mark.index), f.pos(cell.start_mark.index))))
    return out


def _earlier_image(la, name: str, cells: list[Embedding]) -> None:
    """A container launch whose image is a variable its cell does not bind (an environment block's
    ``'Image': container_image``): the string the nearest earlier code cell assigns to it, at the
    top of a line (an f-string's fields unknown), names the image and its release."""
    from vllm_lint.container import ENV_OPTIONS
    from vllm_lint.launch import Span, VersionHint

    assign = re.compile(rb"(?m)^" + re.escape(name.encode()) + rb"[ \t]*=[ \t]*[fF]?([\"'])([^\"'\n]+)\1[ \t]*(?:#.*)?$")
    box = la.container
    row = next((r for r in ENV_OPTIONS if box is not None and r.platform == box.platform), None)
    for cell in reversed(cells):
        found = list(assign.finditer(cell.text))
        if not found:
            continue
        m = found[-1]
        image = re.sub(r"\{[^{}]*\}", "{}", m.group(2).decode("utf-8", "replace"))
        release = row.release_of(image) if row is not None else None
        box.image = box.run_image = image
        box.image_span = cell.cover(m.start(2), m.end(2))
        if release is not None:
            k = m.group(2).rfind((":" + release).encode())
            at = cell.span(m.start(2) + k + 1, m.start(2) + k + 1 + len(release)) if k >= 0 else None
            hint = VersionHint(release, "image-tag", at or box.image_span or Span(0, 0))
            box.version_hints.insert(0, hint)
            la.version_hints.insert(0, hint)
        return


_PIP_MAGIC = re.compile(rb"(?m)^([ \t]*)%(?=pip3?[ \t])")  # IPython's %pip runs ``python -m pip ...`` in a shell


def shell_text(data: bytes) -> Optional[bytes]:
    """The shell lines of the code cells (``!`` lines, ``%pip`` lines, ``%%bash`` / ``%%sh``
    cells) at their places in the JSON, the ``!`` and ``%`` blanked and everything else too (the
    ``shell_text`` hook; bytes an escape spells, ``\\n``, stay blank). None for a notebook that is
    not JSON."""
    from vllm_lint.frontends.yaml.loader import ScalarNode, SequenceNode
    from vllm_lint.frontends.yaml.nodes import get, text as node_text
    from vllm_lint.frontends.yaml.text import YamlText

    if b"install" not in data:
        return None
    try:
        f = YamlText(data, "", Extraction())
        docs = f.parse()
    except (ParseError, ValueError):
        return None
    out = bytearray(b" " * len(data))
    for i, b in enumerate(data):
        if b in (0x0A, 0x0D):
            out[i] = b
    cells = get(docs[0], "cells") if docs else None
    found = False
    for cell in (cells.value if isinstance(cells, SequenceNode) else []):
        if node_text(get(cell, "cell_type")) != "code":
            continue
        src = get(cell, "source")
        pieces = [src] if isinstance(src, ScalarNode) else list(src.value) if isinstance(src, SequenceNode) else []
        t = _cell_text([f.smap(piece) for piece in pieces if isinstance(piece, ScalarNode)])
        magic = _MAGIC_SHELL.match(t.text)
        if magic:  # (the magic line blanked, its line break kept: lines are judged one by one below)
            script = b" " * (magic.end() - 1) + t.text[magic.end() - 1:]
        else:
            script = _blank(t.text, lambda ln: ln.lstrip().startswith((b"!", b"%pip")))
            script = re.sub(rb"(?m)^([ \t]*)!", lambda mm: mm.group(1) + b" ", script)
            script = _PIP_MAGIC.sub(lambda mm: mm.group(1) + b" ", script)
        verbatim = bytearray(len(script))
        for v, _h, n in t.segments:
            verbatim[v:v + n] = b"\x01" * n
        # a line an escape spells part of (``\\"vllm>=0.10\\"``) is left out whole: its quotes are
        # not bytes of the file, and without them the line would read as unquoted
        lines, pos = bytearray(script), 0
        for line in script.splitlines(keepends=True):
            body = len(line.rstrip(b"\r\n"))
            if b"\x00" in verbatim[pos:pos + body]:
                lines[pos:pos + body] = b" " * body
            pos += len(line)
        for v, h, n in t.segments:  # the verbatim runs: the script's bytes at their places
            out[h:h + n] = lines[v:v + n]
            found = found or bool(lines[v:v + n].strip())
    return bytes(out) if found else None


def _add(out: Extraction, ex: Extraction) -> None:
    out.launches.extend(ex.launches)
    out.env.extend(ex.env)
    out.version_hints.extend(ex.version_hints)
    out.notes.extend(ex.notes)


def parse_check(before: bytes, after: bytes) -> Optional[str]:
    """None when the fixed notebook still loads as JSON; else why not."""
    from vllm_lint.frontends.json import check_still_json

    return check_still_json(after, "notebook")
