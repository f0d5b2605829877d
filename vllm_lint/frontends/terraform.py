"""Terraform (and Nomad's job files, the same HCL): the Kubernetes manifests and scripts a
configuration holds as text.

* A ``.tf`` file's heredocs (``yaml_body = <<EOT``, ``manifest = yamldecode(<<-EOT``, ``user_data =
  <<-EOF``): a body that is a Kubernetes manifest is read by the YAML front-end, a script (a
  ``#!`` line) by the shell front-end, any other by the plain-text reader (its command lines);
  ``<<-`` bodies lose their common indentation first, as Terraform strips it. Its HCL
  ``container {}`` blocks: :mod:`.hcl_containers`. A file where none of these starts vLLM is read
  as plain text (``inline = ["vllm serve ..."]`` of a provisioner).
* A ``templatefile`` template (``.tftpl``): a manifest read as YAML; any other template as plain
  text (:mod:`.plaintext`), its ``${...}`` being shell-like expansions there.

Terraform's template syntax in a manifest: an interpolation ``${var.x}`` is a value only the
``apply`` knows, so a word holding one is opaque (never judged); a directive ``%{ for ... }`` /
``%{ endfor }`` renders no text of its own. Both are handed to the YAML front-end as template
regions of the same length (its Helm machinery: ``{{ ... }}``), so every other byte keeps its
offset; bytes rewritten so have no verbatim counterpart, and no fix edits them. ``$${`` and
``%%{`` are Terraform's escapes of a literal ``${`` / ``%{``. ``#`` starts a comment line in
both HCL and YAML, so suppression comments work as elsewhere.
"""

from __future__ import annotations

import re
from typing import Optional

from vllm_lint.frontends.embedding import Embedding, rebase
from vllm_lint.launch import Extraction, Note, ParseError, Span

FORMAT = "terraform"

__all__ = ["FORMAT", "might_contain_launch", "extract"]

_HEREDOC = re.compile(rb"<<(-?)([A-Za-z_][A-Za-z0-9_]*)[ \t]*\r?\n")
_MANIFEST = re.compile(rb"(?m)^[ \t]*(?:apiVersion|kind)[ \t]*:")


def might_contain_launch(data: bytes) -> bool:
    return b"vllm" in data or b"VLLM_" in data


def extract(data: bytes, path: str) -> Extraction:
    if path.lower().endswith(".tftpl"):
        return _template_file(data, path)
    out = Extraction()
    if b"container" in data or b"driver" in data:  # (Terraform's container blocks, Nomad's tasks)
        from vllm_lint.frontends import hcl_containers

        hcl_containers.read(data, path, out)
    for body, emb in _heredocs(data):
        if b"vllm" not in body and b"VLLM_" not in body:
            continue
        if _MANIFEST.search(body):
            try:
                _manifest(body, emb, path, out)
            except ParseError as e:  # (a heredoc, not the file: the rest is read)
                out.notes.append(Note(f"heredoc manifest could not be parsed and was skipped: {e.message}",
                                      span=emb.cover(0, len(body))))
        elif body.startswith(b"#!"):
            from vllm_lint.frontends import shell

            _merge(out, shell.extract_script(body, path, emb))
        else:  # a script without a `#!` line, a file's text: its command lines
            from vllm_lint.frontends import plaintext

            rebase(plaintext.extract(body, path), emb, out)
    if not out.launches and not out.notes:  # (strings of HCL: `inline = ["vllm serve ..."]`)
        from vllm_lint.frontends import plaintext

        return plaintext.extract(data, path)
    return out


def _template_file(data: bytes, path: str) -> Extraction:
    if _MANIFEST.search(data):
        out = Extraction()
        _manifest(data, Embedding.identity(data), path, out)
        return out
    from vllm_lint.frontends import plaintext

    return plaintext.extract(data, path)


def _heredocs(data: bytes) -> list[tuple[bytes, Embedding]]:
    """Each heredoc's body as Terraform gives it, with where its bytes are in ``data``."""
    found = []
    pos = 0
    while True:
        m = _HEREDOC.search(data, pos)
        if m is None:
            return found
        strip, tag = m.group(1) == b"-", m.group(2)
        end = re.compile(rb"(?m)^[ \t]*" + re.escape(tag) + rb"[ \t]*\r?$").search(data, m.end())
        if end is None:
            return found
        block = data[m.end():end.start()]
        if strip:
            lines = [ln for ln in block.splitlines() if ln.strip()]
            cut = min((len(ln) - len(ln.lstrip(b" \t")) for ln in lines), default=0)
            emb = Embedding.dedent(block, m.end(), cut)
        else:
            emb = Embedding.identity(block, m.end())
        found.append((emb.text, emb))
        pos = end.end()


def _manifest(text: bytes, emb: Embedding, path: str, out: Extraction) -> None:
    """A manifest holding Terraform's template syntax, read by the YAML front-end."""
    from vllm_lint.frontends import yaml
    from vllm_lint.frontends.interpolations import interpolations_as_regions

    filled, changed = interpolations_as_regions(text)
    written = emb  # (where the regions themselves are written: for the notes that point at one)
    if changed:
        positions = [emb.host(i) for i in range(len(text))]
        for s, e in changed:
            positions[s:e] = [None] * (e - s)
        emb = Embedding.from_positions(filled, positions)
    try:
        found = yaml.extract(filled, path)
    except ParseError as e:
        if e.offset is not None:
            raise ParseError(e.message, offset=written.host(e.offset)) from None
        raise
    for note in found.notes:  # (the YAML front-end names its own template syntax)
        out.notes.append(Note(note.message.replace("({{ ... }})", "(${...}, %{...})"),
                              span=written.cover(note.span.start, note.span.end) if note.span else None,
                              code=note.code, severity=note.severity))
    found.notes = []
    rebase(found, emb, out)


def _merge(out: Extraction, ex: Extraction) -> None:
    out.launches.extend(ex.launches)
    out.env.extend(ex.env)
    out.version_hints.extend(ex.version_hints)
    out.notes.extend(ex.notes)
