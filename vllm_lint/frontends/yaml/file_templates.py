"""A template of a YAML file named so (``deploy.yaml.tpl``, ``.tmpl``, ``.template``, Jinja's
``.yaml.j2``: ``frontends.base.TEMPLATE_SUFFIXES``): its placeholders (envsubst's ``${NAME}``, a
generator's ``{name}``) read as template expressions, unknown values; Jinja's statements (``{% if
%}``, ``{% for %}``, ``{# #}``) blanked, as rendering removes them, with the branches of an ``{% if
%}`` after its first (an alternative, as the reader of last resort reads a ``.sh.j2``); one that
does not parse as written read for its command lines. Imported only for such a file."""

from __future__ import annotations

import re

from vllm_lint.launch import Extraction, Note, ParseError, Span
from vllm_lint.record import lazy_re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional

# a format string's field (Python's ``str.format``, a templating tool's ``{name}``): a word of its
# own, two characters or more, never ``${...}`` nor a template expression's ``{{``
_FIELD = lazy_re(rb"(?<![$\w{])\{([A-Za-z_][A-Za-z_0-9.]+)\}(?![}\w])")


def placeholders_as_regions(data: bytes) -> bytes:
    """``data`` with a template's placeholders (``${NAME}``, ``{name}``) spelled as template
    expressions of the same length (``{{...}}``), which the YAML front-end reads as unknown values."""
    if b"${" in data:
        from vllm_lint.frontends.interpolations import interpolations_as_regions

        data = interpolations_as_regions(data)[0]
    return _FIELD.sub(lambda m: b"{{" + m.group(1)[1:-1] + b"}}", data)


# a Jinja statement or comment (``{%- if x %}``, ``{# note #}``), on one line or over several
_JINJA_TAG = lazy_re(rb"\{%.*?%\}|\{#.*?#\}", re.S)


def jinja_statements_blanked(data: bytes, path: str = "") -> bytes:
    """``data`` with Jinja's statements and comments blanked (spaces; line breaks kept), and the
    branches of each ``{% if %}`` that do not render: those its Ansible role's variables decide
    against (:mod:`vllm_lint.frontends.jinja_vars`), else those after the first (two branches that
    set one key are no key given twice). A loop's body is read once."""
    if b"{%" not in data and b"{#" not in data:
        return data
    from vllm_lint.frontends.jinja_vars import blank_statements, role_vars

    tags = [m.span() for m in _JINJA_TAG.finditer(data)]
    variables = role_vars(path) if b"{% if" in data or b"{%- if" in data else None
    out, _holes = blank_statements(data, tags, variables)
    from vllm_lint.frontends.yaml.templates import block_scalar_leads

    block_scalar_leads(out)
    return bytes(out)


def template_as_text(data: bytes, path: str, error: ParseError) -> Extraction:
    """A template of a YAML file that does not parse as written (a ``{port}`` format field where
    YAML sees a mapping): its command lines, read by the reader of last resort, and a note."""
    from vllm_lint.frontends import plaintext

    out = plaintext.extract(data, path)
    at = error.offset if error.offset is not None else 0
    out.notes.append(Note(f"the template does not parse as YAML as written ({error.message}): "
                          "read as plain text, its command lines only", span=Span(at, min(len(data), at + 1))))
    return out


def name_placeholders(out: Extraction) -> None:
    """The notes of a template's placeholders name them as written (``${...}``)."""
    for note in out.notes:
        if "({{ ... }})" in note.message:
            note.message = note.message.replace("({{ ... }})", "(the template's placeholders: ${...}, {...})")
