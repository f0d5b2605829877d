"""A Helm chart's ``values.yaml``, joined with the chart's templates.

A file under ``<chart>/templates/`` beside a ``Chart.yaml`` renders ``{{ .Values.x.y }}`` from
``<chart>/values.yaml``: where the value there is a literal (a string, number or boolean), a
template word, environment value or image tag holding such expressions is read as it renders
(``| quote``, ``| squote``, ``| toString``, ``| default "lit"`` and ``required "msg" .Values.x``
are understood; ``toYaml`` blocks are not rendered, so a chart that takes its whole command from
the values, as vLLM's example chart does, is read in its ``values.yaml`` instead); any other
expression leaves the value unknown, as in a file without values. The values file is a file this
analysis read: it is recorded through :mod:`vllm_lint.inputs`, so a cached result is dropped when
it changes.
"""

from __future__ import annotations

import os
from typing import Any, Optional

from vllm_lint.frontends.delimited import delimited
from vllm_lint.record import lazy_re

_MAX_BYTES = 4 * 1024 * 1024
_VALUES_PATH = lazy_re(r"^\$?\.Values((?:\.[A-Za-z_][A-Za-z0-9_-]*)+)$")
_REQUIRED = lazy_re(r'^required\s+"(?:[^"\\]|\\.)*"\s+(\S+)$')
_DEFAULT = lazy_re(r'^default\s+(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`)$')


def chart_values(path: str) -> Optional[dict]:
    """The values of the chart whose template ``path`` is, or None (no chart, no values, or
    values that do not load as a mapping)."""
    from vllm_lint import inputs
    from vllm_lint.fsutil import open_regular

    d = os.path.dirname(os.path.abspath(path))
    if f"{os.sep}templates" not in d:
        return None
    while os.path.basename(d) != "templates":
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
    chart = os.path.dirname(d)
    if not os.path.isfile(os.path.join(chart, "Chart.yaml")):
        return None
    values_path = os.path.join(chart, "values.yaml")
    try:
        with open_regular(values_path) as f:  # (a link to a FIFO or a device: not read)
            raw = f.read(_MAX_BYTES + 1)
    except OSError:
        inputs.note(values_path, None)  # (a values file made later changes the result)
        return None
    inputs.note(values_path, raw)
    if len(raw) > _MAX_BYTES:
        return None
    import yaml

    try:
        values = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except Exception:  # yaml.YAMLError, RecursionError: the template is read without values
        return None
    return values if isinstance(values, dict) else None


def render_expr(expr: str, values: dict) -> Optional[str]:
    """The text one expression renders from ``values``, or None when it is not known."""
    body = expr[2:-2].strip()
    body = body[1:] if body.startswith("-") else body
    body = body[:-1] if body.endswith("-") else body
    head, *pipes = [p.strip() for p in body.split("|")]
    req = _REQUIRED.match(head)  # `required "message" .Values.x`: the value, which must be set
    m = _VALUES_PATH.match(req.group(1) if req else head)
    if not m:
        return None
    value: Any = values
    for key in m.group(1)[1:].split("."):
        value = value.get(key) if isinstance(value, dict) else None
    for pipe in pipes:
        d = _DEFAULT.match(pipe)
        if d:
            if value is None or value == "":
                if d.group(1) is not None and "\\" in d.group(1):
                    return None
                value = d.group(1) if d.group(1) is not None else d.group(2)
        elif pipe not in ("quote", "squote", "toString"):
            return None  # (a quoted word decodes to the value itself in YAML)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    return None


def render(raw: str, values: dict) -> Optional[str]:
    """``raw`` with every expression rendered from ``values``, or None when one is not known."""
    out, pos = [], 0
    for start, end in delimited(raw, "{{", "}}"):
        text = render_expr(raw[start:end], values)
        if text is None:
            return None
        out.append(raw[pos:start])
        out.append(text)
        pos = end
    out.append(raw[pos:])
    return "".join(out)
