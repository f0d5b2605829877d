"""Kubernetes manifests written in Python strings (issue 27): a script that fills an
``InferenceService`` / ``Deployment`` YAML in an f-string (or ``str.format``) and applies it. A
string literal whose text starts a manifest (``apiVersion:`` and ``kind:`` at line starts) and
names vLLM is read by the YAML front-end through the string's embedding, so findings land on the
string's bytes; each formatted field (``{service_name}``) is a template expression there, an
unknown value."""

from __future__ import annotations

import ast

from ...launch import ParseError
from ...record import lazy_re
from ..embedding import rebase
from .literals import decode_literal, embedding_of
from .state import PyFile

_MANIFEST = lazy_re(r"(?m)^[ \t]*apiVersion:[ \t]*\S.*\n(?:.*\n)*?[ \t]*kind:[ \t]*\S|^[ \t]*kind:[ \t]*\S.*\n(?:.*\n)*?[ \t]*apiVersion:")
_MAX_STRINGS = 64


def worth_reading(data: bytes) -> bool:
    """Whether the file may hold a manifest string that names vLLM."""
    return b"apiVersion" in data and b"kind:" in data and b"vllm" in data


def _field(k: int) -> str:
    return "{{ .PY%d }}" % k  # (a template expression: the YAML front-end's unknown value)


def manifest_strings(fx: PyFile, tree: ast.Module) -> None:
    """Read the manifest strings of ``tree`` (at most :data:`_MAX_STRINGS`) as YAML files."""
    from ..base import get  # noqa: PLC0415  (the registry: the YAML front-end reads Python too)

    yaml = get("yaml").module
    src = fx.src
    seen = 0
    done: set = set()  # (an f-string's literal parts carry its whole span before Python 3.12)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            pass
        elif not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        sp = src.span(node)
        if (sp.start, sp.end) in done or any(a <= sp.start and sp.end <= b for a, b in done):
            continue
        raw = src.data[sp.start:sp.end]
        if b"vllm" not in raw or b"apiVersion" not in raw:
            continue
        info = decode_literal(src, sp, _field)
        if info is None or "vllm" not in info.value or not _MANIFEST.search(info.value):
            continue
        done.add((sp.start, sp.end))
        seen += 1
        if seen > _MAX_STRINGS:
            return
        script = info.value.encode("utf-8")
        try:
            sub = yaml.extract(script, fx.path)
        except ParseError:
            continue
        rebase(sub, embedding_of(info, script, src.utf8), fx.result)
