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

Named templates: ``{{ include "x.args" . }}`` and ``{{ template "x.args" . }}`` render the
chart's ``{{ define "x.args" }}`` block (from the ``*.tpl`` files of its ``templates/`` folder, also
recorded), when its body renders to a known text (its own expressions from the values, its
``{{-`` / ``-}}`` trimming applied; a block with control structures, or piped to ``nindent``,
stays unknown). A shell script's words rendered so are split into words
(:func:`~.templates.apply_templates`).
"""

from __future__ import annotations

import os
from typing import Any, Optional

from vllm_lint.frontends.delimited import delimited
from vllm_lint.record import lazy_re

_MAX_BYTES = 4 * 1024 * 1024
_MAX_DEPTH = 8  # named templates that include others: how deep they are followed
_NAMED = lazy_re(r'^(?:include|template)\s+"([^"\\]+)"\s+(?:\.|\$)$')
_DEFINE = lazy_re(r'\{\{-?\s*define\s+"([^"\\]+)"\s*-?\}\}')
_ACTION = lazy_re(r"\{\{-?\s*(if|with|range|define|block|end)\b[^}]*-?\}\}")


class ChartValues(dict):
    """A chart's values, and the bodies of its named templates (``defines``: name -> text)."""

    defines: dict = {}
_VALUES_PATH = lazy_re(r"^\$?\.Values((?:\.[A-Za-z_][A-Za-z0-9_-]*)+)$")
_REQUIRED = lazy_re(r'^required\s+"(?:[^"\\]|\\.)*"\s+(\S+)$')
_DEFAULT = lazy_re(r'^default\s+(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`)$')
_JOIN = lazy_re(r'^join\s+"((?:[^"\\]|\\.)*)"$')


def chart_values(path: str) -> Optional[dict]:
    """The values of the chart whose template ``path`` is, or None (no chart, no values, or
    values that do not load as a mapping)."""
    from vllm_lint import inputs

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
    raw = inputs.read_other(values_path, _MAX_BYTES)
    if raw is None:
        return None
    import yaml

    try:
        values = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except Exception:  # yaml.YAMLError, RecursionError: the template is read without values
        return None
    if not isinstance(values, dict):
        return None
    out = ChartValues(values)
    out.defines = _defines(d)
    return out


def _defines(templates: str) -> dict:
    """The named templates of the ``*.tpl`` files of a chart's ``templates`` folder."""
    from vllm_lint import inputs

    out: dict = {}
    try:
        names = sorted(n for n in os.listdir(templates) if n.endswith(".tpl"))
    except OSError:
        return out
    for name in names[:32]:
        raw = inputs.read_other(os.path.join(templates, name), _MAX_BYTES)
        if raw is not None:
            out.update(named_templates(raw.decode("utf-8", "replace")))
    return out


def named_templates(text: str) -> dict:
    """``{{ define "name" }} body {{ end }}`` blocks of a template file: name -> body (nested
    ``if``/``range``/``with`` blocks kept in the body)."""
    out: dict = {}
    for m in _DEFINE.finditer(text):
        depth, pos = 0, m.end()
        for a in _ACTION.finditer(text, m.end()):
            if a.group(1) == "end":
                if depth == 0:
                    body = text[m.end():a.start()]
                    if m.group(0).rstrip("}").endswith("-"):
                        body = body.lstrip()
                    if a.group(0).startswith("{{-"):
                        body = body.rstrip()
                    out.setdefault(m.group(1), body)
                    break
                depth -= 1
            else:
                depth += 1
            pos = a.end()
        del pos
    return out


def render_expr(expr: str, values: dict, depth: int = 0) -> Optional[str]:
    """The text one expression renders from ``values``, or None when it is not known."""
    body = expr[2:-2].strip()
    body = body[1:] if body.startswith("-") else body
    body = body[:-1] if body.endswith("-") else body
    head, *pipes = [p.strip() for p in body.split("|")]
    named = _NAMED.match(head)
    if named:
        return _named(named.group(1), pipes, values, depth)
    req = _REQUIRED.match(head)  # `required "message" .Values.x`: the value, which must be set
    m = _VALUES_PATH.match(req.group(1) if req else head)
    if not m:
        return None
    value: Any = values
    for key in m.group(1)[1:].split("."):
        value = value.get(key) if isinstance(value, dict) else None
    for pipe in pipes:
        d = _DEFAULT.match(pipe)
        j = _JOIN.match(pipe)
        if d:
            if value is None or value == "":
                if d.group(1) is not None and "\\" in d.group(1):
                    return None
                value = d.group(1) if d.group(1) is not None else d.group(2)
        elif j:  # `.Values.args | join " "`: a list of words written as one text
            if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) for v in value) \
                    or "\\" in j.group(1):
                return None
            value = j.group(1).join(_word(v) for v in value)
        elif pipe not in ("quote", "squote", "toString"):
            return None  # (a quoted word decodes to the value itself in YAML)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    return None


def _word(v: Any) -> str:
    """How Helm prints one item of a list it joins (a boolean in Go's spelling)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _named(name: str, pipes: list[str], values: dict, depth: int) -> Optional[str]:
    """What ``include "name" .`` renders: the named template's body, rendered."""
    body = getattr(values, "defines", {}).get(name)
    if body is None or depth >= _MAX_DEPTH:
        return None
    text = render(_trimmed(body), values, depth + 1)
    if text is None:
        return None
    for pipe in pipes:
        if pipe == "trim":
            text = text.strip()
        elif pipe == "quote":
            text = '"' + text + '"'  # (a quoted word decodes to the text in YAML)
        elif pipe not in ("toString",):
            return None  # nindent, indent, toYaml ...: a structure, not a text
    return text


def _trimmed(body: str) -> str:
    """A template's text with ``{{-`` / ``-}}`` whitespace trimming applied."""
    out, pos = [], 0
    for start, end in delimited(body, "{{", "}}"):
        before = body[pos:start]
        out.append(before.rstrip() if body.startswith("{{-", start) else before)
        out.append(body[start:end])
        pos = end
        if body[start:end].endswith("-}}"):
            while pos < len(body) and body[pos] in " \t\r\n":
                pos += 1
    out.append(body[pos:])
    return "".join(out)


def render(raw: str, values: dict, depth: int = 0) -> Optional[str]:
    """``raw`` with every expression rendered from ``values``, or None when one is not known."""
    out, pos = [], 0
    for start, end in delimited(raw, "{{", "}}"):
        text = render_expr(raw[start:end], values, depth)
        if text is None:
            return None
        out.append(raw[pos:start])
        out.append(text)
        pos = end
    out.append(raw[pos:])
    return "".join(out)
