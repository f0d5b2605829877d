"""Makefiles (``Makefile``, ``makefile``, ``GNUmakefile``, ``*.mk``): vLLM launches in recipe lines.

A recipe line is a line that starts with a tab after a rule (``serve:``); make hands it to the
shell, without its ``@``/``-``/``+`` prefixes, and a recipe line ending in ``\\`` goes on on the
next line. The recipe lines are read as one shell script of the file's own length: every other
byte becomes a space (line breaks kept), so offsets are the file's and fixes edit the recipe.
Make's ``$(VAR)`` / ``${VAR}`` read as the shell's ``${VAR}``, and a variable the makefile assigns
one word outside a recipe (``VLLM_IMAGE := vllm/vllm-openai:v0.8.5``, ``=``, ``?=``, ``::=``;
``export`` kept) reads as the shell's assignment there, its value at its own bytes: so
``docker run $(VLLM_IMAGE) ...`` is a launch of that image, and ``upgrade`` bumps the tag where it
is written. Any other variable is an opaque word, as an unset shell variable is. ``#`` comment
lines hold suppression comments as in shell.
"""

from __future__ import annotations

import re

from vllm_lint.launch import Extraction

FORMAT = "makefile"
NAMES = ("makefile", "gnumakefile")
SUFFIXES = (".mk",)

__all__ = ["FORMAT", "NAMES", "SUFFIXES", "might_contain_launch", "extract", "recipe_script", "shell_text"]

_RECIPE_PREFIX = re.compile(rb"\t[@+\- \t]*")
# a one-word assignment outside a recipe: `[export ]NAME := value` (also `=`, `?=`, `::=`)
_ASSIGNMENT = re.compile(rb"^[ \t]*(export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*(?:::=|:=|\?=|=)[ \t]*([^\s#\\]+)[ \t]*$")
# make's reference to a variable, `$(NAME)`: the shell's `${NAME}` (same length)
_MAKE_REF = re.compile(rb"\$\(([A-Za-z_][A-Za-z0-9_]*)\)")


def might_contain_launch(data: bytes) -> bool:
    return b"vllm" in data or b"VLLM_" in data


def recipe_script(data: bytes) -> bytes:
    """The recipe lines of ``data`` with everything else blanked (offsets kept)."""
    out = bytearray(b" " * len(data))
    pos = 0
    in_rule = False
    cont = False
    for line in data.splitlines(keepends=True):
        body = line.rstrip(b"\r\n")
        if cont or (in_rule and line.startswith(b"\t")):
            m = _RECIPE_PREFIX.match(body) if not cont else None
            k = m.end() if m else 0
            out[pos + k : pos + len(body)] = _MAKE_REF.sub(rb"${\1}", body[k:])
            cont = body.endswith(b"\\")
        else:
            cont = False
            stripped = body.strip()
            if stripped and not stripped.startswith(b"#"):
                # a rule line (`target: deps`) opens a recipe; an assignment or directive ends one
                in_rule = b":" in body and not re.match(rb"\s*[\w.-]+\s*(?::?=|\+=|\?=)", body)
                a = None if in_rule else _ASSIGNMENT.match(body)
                if a is not None:
                    # `NAME=` written right before the value, which keeps its offsets
                    head = (b"export " if a.group(1) else b"") + a.group(2) + b"="
                    at = a.start(3) - len(head)
                    if at >= 0:
                        out[pos + at : pos + a.end(3)] = head + _MAKE_REF.sub(rb"${\1}", a.group(3))
        for i in range(pos, pos + len(line)):
            if data[i : i + 1] in (b"\n", b"\r"):
                out[i] = data[i]
        pos += len(line)
    return bytes(out)


def shell_text(data: bytes) -> bytes:
    """The recipe lines: make hands each to ``/bin/sh`` (the ``shell_text`` hook)."""
    return recipe_script(data)


def extract(data: bytes, path: str) -> Extraction:
    from vllm_lint.frontends import shell

    # (no value of a variable is read: each recipe line runs in a shell of its own, and `make NAME=...`
    # overrides the makefile's assignments)
    return shell.extract_script(recipe_script(data), path, resolve=False)
