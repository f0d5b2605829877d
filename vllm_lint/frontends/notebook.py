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

__all__ = ["FORMAT", "SUFFIXES", "COMMENTS", "might_contain_launch", "extract", "parse_check"]

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
    for cell in (cells.value if isinstance(cells, SequenceNode) else []):
        kind = node_text(get(cell, "cell_type"))
        src = get(cell, "source")
        pieces = [src] if isinstance(src, ScalarNode) else list(src.value) if isinstance(src, SequenceNode) else []
        t = _cell_text([f.smap(piece) for piece in pieces if isinstance(piece, ScalarNode)])
        text = t.text
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
                if b"!" in text:
                    _add(out, shell.extract_script(script, path, t))
                code = _blank(text, lambda ln: not ln.lstrip().startswith((b"!", b"%")))
                rebase(python.extract(code, path), t, out)
        except ParseError as e:
            from vllm_lint.launch import Note, Span

            line = data.count(b"\n", 0, f.pos(cell.start_mark.index)) + 1
            out.notes.append(Note(f"{kind} cell at line {line} could not be parsed and was skipped: {e.message}",
                                  span=Span(f.pos(cell.start_mark.index), f.pos(cell.start_mark.index))))
    return out


def _add(out: Extraction, ex: Extraction) -> None:
    out.launches.extend(ex.launches)
    out.env.extend(ex.env)
    out.version_hints.extend(ex.version_hints)
    out.notes.extend(ex.notes)


def parse_check(before: bytes, after: bytes) -> Optional[str]:
    """None when the fixed notebook still loads as JSON; else why not."""
    from vllm_lint.frontends.json import check_still_json

    return check_still_json(after, "notebook")
