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
``{{-`` / ``-}}`` trimming applied, an ``if`` / ``else`` on a value and a ``range`` over a list of
words rendered as Helm does; another condition, a ``with``, or an include piped to ``nindent``,
stays unknown; ``| indent N | trim``, which continues a ``\\``-continued command line, renders).
``| join " "`` writes a list of words as one text. A shell script's words rendered so are split
into words (:func:`~.templates.apply_templates`).

Override values files: a chart's other values files beside ``values.yaml`` (``values-prod.yaml``,
``prod-values.yaml``; :func:`override_values`), each merged over it as Helm merges ``-f`` files.
A template whose vLLM command the defaults do not render (a branch of a back-end switch) is read
as the first of them that renders it (``yaml._extract``).
"""

from __future__ import annotations

import os

from vllm_lint.frontends.delimited import delimited
from vllm_lint.frontends.yaml.prefilter import MAX_VALUES_BYTES as _MAX_BYTES
from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

_MAX_DEPTH = 8  # named templates that include others: how deep they are followed
_NAMED = lazy_re(r'^(?:include|template)\s+"([^"\\]+)"\s+(?:\.|\$)$')
_DEFINE = lazy_re(r'\{\{-?\s*define\s+"([^"\\]+)"\s*-?\}\}')
_ACTION = lazy_re(r"\{\{-?\s*(if|with|range|define|block|end)\b[^}]*-?\}\}")


class ChartValues(dict):
    """A chart's values, and the bodies of its named templates (``defines``: name -> text);
    ``chart``: the chart's folder, ``name``: the values file's name."""

    defines: dict = {}
    chart: str = ""
    name: str = "values.yaml"
_VALUES_PATH = lazy_re(r"^\$?\.Values((?:\.[A-Za-z_][A-Za-z0-9_-]*)+)$")
_REQUIRED = lazy_re(r'^required\s+"(?:[^"\\]|\\.)*"\s+(\S+)$')
_DEFAULT = lazy_re(r'^default\s+(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`)$')
_JOIN = lazy_re(r'^join\s+"((?:[^"\\]|\\.)*)"$')


def chart_values(path: str) -> Optional[dict]:
    """The values of the chart whose template ``path`` is, or None (no chart, no values, or
    values that do not load as a mapping)."""
    from vllm_lint import inputs

    from vllm_lint.frontends.yaml.prefilter import templates_folder

    d = templates_folder(path)
    if d is None:
        return None
    chart = os.path.dirname(d)
    values = _load(os.path.join(chart, "values.yaml"))
    if values is None:
        return None
    out = ChartValues(values)
    out.defines = _defines(d)
    out.chart = chart
    return out


def _load(values_path: str) -> Optional[dict]:
    from vllm_lint import inputs

    raw = inputs.read_other(values_path, _MAX_BYTES)
    if raw is None:
        return None
    from vllm_lint import libyaml

    try:
        values = libyaml.load(raw)
    except Exception:  # yaml.YAMLError, RecursionError: the template is read without values
        return None
    return values if isinstance(values, dict) else None


# a chart's other values files, given to `helm install -f` for one environment (values-prod.yaml,
# values.gpu.yaml, prod-values.yaml): Helm's convention names them after values.yaml
_OVERRIDE_FILE = lazy_re(r"(?i)^(?:values[-_.][\w.-]+|[\w.-]+[-_.]values)\.ya?ml$")
_MAX_OVERRIDES = 8


def override_values(values: "ChartValues") -> list["ChartValues"]:
    """The chart's values as each of its override values files (beside ``values.yaml``, in the
    chart's folder; sorted by name, at most :data:`_MAX_OVERRIDES`) gives them: that file merged
    over ``values.yaml`` as Helm merges them (mappings key by key, anything else replaced)."""
    try:
        names = sorted(n for n in os.listdir(values.chart) if _OVERRIDE_FILE.match(n) and n.lower() != "values.yaml")
    except OSError:
        return []
    out = []
    for name in names[:_MAX_OVERRIDES]:
        over = _load(os.path.join(values.chart, name))
        if over is None:
            continue
        merged = ChartValues(_merged(dict(values), over))
        merged.defines, merged.chart, merged.name = values.defines, values.chart, name
        out.append(merged)
    return out


def _merged(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merged(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
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
    text = render_control(_trimmed(body), values, depth + 1)
    if text is None:
        return None
    for k, pipe in enumerate(pipes):
        ind = _INDENT.match(pipe)
        if ind is not None and pipes[k + 1:k + 2] == ["trim"]:
            # `indent N | trim`: the text's lines continue the line the include is on (a
            # command line in a block scalar), each indented as the block is
            text = "\n".join(" " * int(ind.group(1)) + line if line else line for line in text.split("\n"))
        elif pipe == "trim":
            text = text.strip()
        elif pipe == "quote":
            text = '"' + text + '"'  # (a quoted word decodes to the text in YAML)
        elif pipe not in ("toString",):
            return None  # nindent, indent, toYaml ...: a structure, not a text
    return text


_INDENT = lazy_re(r"^indent\s+(\d{1,3})$")
_CONTROL = lazy_re(r"^(if|else if|else|range|end|with)\b\s*(.*)$")
_DOT = lazy_re(r"^\.(?:\s*\|\s*(?:quote|squote|toString))?$")


def render_control(raw: str, values: dict, depth: int = 0) -> Optional[str]:
    """``raw`` rendered with its control structures: ``if`` / ``else if`` / ``else`` on a value
    of the chart (``.Values.x``, ``not .Values.x``, ``true`` / ``false``), ``range`` over a list of
    the values' words (``{{ . }}`` the item); any other action, or a condition on something else,
    leaves the text unknown (None)."""
    parts: list = []  # text, or (action, argument) of a control action, or an expression
    pos = 0
    for start, end in delimited(raw, "{{", "}}"):
        parts.append(raw[pos:start])
        inner = raw[start + 2:end - 2].strip().lstrip("-").rstrip("-").strip()
        c = _CONTROL.match(inner)
        parts.append((c.group(1), c.group(2).strip()) if c else raw[start:end])
        pos = end
    parts.append(raw[pos:])
    out, k = _block(parts, 0, values, depth, None)
    return out if k == len(parts) else None


def _block(parts: list, k: int, values: dict, depth: int, item: Any) -> tuple[Optional[str], int]:
    """Render ``parts`` from ``k`` to the ``end`` / ``else`` that closes the block: (text or None,
    the index of that closing action, or len(parts))."""
    out: list[str] = []
    unknown = False
    while k < len(parts):
        p = parts[k]
        if isinstance(p, tuple):
            kind, arg = p
            if kind in ("end", "else", "else if"):
                return (None if unknown else "".join(out)), k
            if kind == "with":
                return None, len(parts) + 1
            if kind == "if":
                text, k = _if(parts, k, values, depth, item)
            else:  # range
                text, k = _range(parts, k, arg, values, depth)
            if text is None:
                unknown = True
            else:
                out.append(text)
            continue
        if p.startswith("{{"):
            inner = p[2:-2].strip().lstrip("-").rstrip("-").strip()
            if item is not None and _DOT.match(inner):
                out.append(_quoted(_word(item)) if "quote" in inner and _NEEDS_QUOTES.search(_word(item))
                           else _word(item))
            else:
                text = render_expr(p, values, depth)
                if text is None:
                    unknown = True
                else:
                    out.append(text)
        else:
            out.append(p)
        k += 1
    return (None if unknown else "".join(out)), k


def _if(parts: list, k: int, values: dict, depth: int, item: Any) -> tuple[Optional[str], int]:
    """An ``if`` chain at ``parts[k]``: the text of the branch that renders (None when a condition
    is unknown), and the index after its ``end``."""
    chosen: Optional[str] = ""
    decided = False
    cond = parts[k][1]
    while True:
        truth = True if cond is None else _condition(cond, values)
        text, k = _block(parts, k + 1, values, depth, item)
        if not decided:
            if truth is None:
                chosen, decided = None, True
            elif truth:
                chosen, decided = text, True
        if k >= len(parts):
            return None, len(parts) + 1
        kind, arg = parts[k]
        if kind == "end":
            return (chosen if decided else ""), k + 1
        cond = arg if kind == "else if" else None


def _range(parts: list, k: int, arg: str, values: dict, depth: int) -> tuple[Optional[str], int]:
    """A ``range`` over a list of the values' words at ``parts[k]``: each item's text (None when
    the list is not known), and the index after its ``end``."""
    items = _lookup(arg, values)
    start = k + 1
    _text, k = _block(parts, start, values, depth, "")
    if k >= len(parts) or parts[k][0] != "end":
        return None, len(parts) + 1
    if not isinstance(items, list) or not all(isinstance(v, (str, int, float)) for v in items):
        return None, k + 1
    out = []
    for v in items:
        text, _k = _block(parts, start, values, depth, v)
        if text is None:
            return None, k + 1
        out.append(text)
    return "".join(out), k + 1


def _lookup(expr: str, values: dict) -> Any:
    """The value at ``.Values.a.b`` (``$.Values...``), or None."""
    m = _VALUES_PATH.match(expr.strip())
    if not m:
        return None
    value: Any = values
    for key in m.group(1)[1:].split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _condition(cond: str, values: dict) -> Optional[bool]:
    """Go's truth of ``.Values.x`` / ``not .Values.x`` / a literal, or None for any other condition."""
    negate = cond.startswith("not ")
    body = cond[4:].strip() if negate else cond.strip()
    if body in ("true", "false"):
        truth = body == "true"
    elif _VALUES_PATH.match(body):
        v = _lookup(body, values)
        truth = bool(v) if not isinstance(v, (int, float)) or isinstance(v, bool) else v != 0
    else:
        return None
    return not truth if negate else truth


_NEEDS_QUOTES = lazy_re(r"[\s\"'\\]")


def _quoted(text: str) -> str:
    """``text`` as ``quote`` writes it (Go's ``%q`` of a printable string): in double quotes, with
    ``\\`` and ``\"`` escaped, one word to a shell and one scalar to YAML whatever it holds (a JSON
    value with blanks); a plain word is written as itself (both read it so)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


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
