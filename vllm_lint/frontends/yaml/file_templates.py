"""A template of a YAML file named so (``deploy.yaml.tpl``, ``.tmpl``, ``.template``:
``frontends.base.TEMPLATE_SUFFIXES``): its placeholders (envsubst's ``${NAME}``, a generator's
``{name}``) read as template expressions, unknown values; one that does not parse as written read
for its command lines. Imported only for such a file."""

from __future__ import annotations

from vllm_lint.launch import Extraction, Note, ParseError, Span
from vllm_lint.record import lazy_re

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
