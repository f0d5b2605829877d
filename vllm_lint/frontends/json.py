"""JSON manifests (``*.json``: Kubernetes objects, ``kubectl get -o json`` output, compose files
written as JSON): read by the YAML front-end, since JSON is YAML's flow style, so every word keeps
its exact position and fixes edit the JSON in place; a fixed file must still load as JSON
(:func:`parse_check`). The file is first loaded as JSON: a file that is not JSON is a parse error (one
line, with its line), never YAML read leniently. JSON has no comments: a finding there cannot be
suppressed by a comment (``COMMENTS``; ``--add-noqa`` says so), only by a baseline or
``per-file-ignores``.
"""

from __future__ import annotations

from typing import Optional

from vllm_lint.launch import Extraction, ParseError

FORMAT = "json"
SUFFIXES = (".json",)
COMMENTS = False

__all__ = ["FORMAT", "SUFFIXES", "COMMENTS", "might_contain_launch", "extract", "parse_check", "require_json",
           "check_still_json"]


def might_contain_launch(data: bytes) -> bool:
    from vllm_lint.frontends import yaml

    return yaml.might_contain_launch(data)


def require_json(data: bytes, what: str = "JSON") -> None:
    """Raise a one-line ParseError (with its line) when ``data`` is not JSON; ``what`` names the
    kind of file in the message (``JSON``, ``notebook JSON``)."""
    import json

    try:
        json.loads(data)
    except ValueError as e:
        raise ParseError(f"invalid {what}: {getattr(e, 'msg', e)}", line=getattr(e, "lineno", None)) from None
    except RecursionError:
        raise ParseError(f"{what} nested too deeply") from None


def check_still_json(after: bytes, what: str = "file") -> Optional[str]:
    """None when fixed bytes still load as JSON; else why not (``what``: the file's kind)."""
    import json

    try:
        json.loads(after)
    except ValueError as e:
        return f"the fixed {what} would not load as JSON ({getattr(e, 'msg', e)})"
    return None


def extract(data: bytes, path: str) -> Extraction:
    if not data.strip():
        return Extraction()
    require_json(data)
    from vllm_lint.frontends import yaml

    return yaml.extract(data, path)


def parse_check(before: bytes, after: bytes) -> Optional[str]:
    """None when the fixed bytes still load as JSON; else why not."""
    return check_still_json(after)
