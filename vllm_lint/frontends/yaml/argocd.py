"""An Argo CD ``Application`` that deploys a Helm chart of its own repository: ``spec.source`` (or
each of ``spec.sources``) with a ``path:`` to the chart's folder and a ``helm:`` block of overrides.
Argo CD renders the chart as ``helm template`` does with them: the chart's ``values.yaml``, then
``valueFiles`` (paths in the chart's folder), ``values`` (a YAML text), ``valuesObject`` (a mapping)
and last ``parameters`` (``--set name=value``; ``forceString`` keeps the text), each merged over
the one before as Helm merges values.

The chart is found in the checkout holding the Application (the folder with ``.git`` above it):
``<root>/<path>/Chart.yaml``; a chart from a Helm repository (``chart:``) or another repository
is not at hand. Each template of the chart's ``templates`` folder is read as it renders with
those values (:func:`~vllm_lint.frontends.yaml._extract`), and each launch found is reported in
the Application, where its overrides are written: a word or image tag rendered from a parameter
(``deployment.maxModelLen``) at that parameter's value, anything else at the ``helm:`` block; no
fix is offered (the words are the template's). The files read (values, value files, templates)
are inputs of the result (:mod:`vllm_lint.inputs`).
"""

from __future__ import annotations

import os

from vllm_lint.frontends.yaml.nodes import MappingNode, ScalarNode, get, py, seq, text
from vllm_lint.launch import Span
from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

_MAX_TEMPLATES = 32
_MAX_BYTES = 1024 * 1024
_VALUES_REF = lazy_re(r"\.Values((?:\.[A-Za-z_][A-Za-z0-9_-]*)+)")
_ARGO = "argoproj.io/"
_MAX_NESTING = 3  # an app of apps: a chart whose templates are Applications of other charts
_rendering: list = []  # the charts being rendered (an Application of its own chart renders none again)


def is_application(top: dict) -> bool:
    """Whether a document's root keys are an Argo CD ``Application``'s."""
    return text(top.get("kind")) == "Application" and (text(top.get("apiVersion")) or "").startswith(_ARGO)


def read(t: Any, root: Any) -> bool:
    """The launches of the charts the Application ``root`` renders (see the module); whether any."""
    spec = get(root, "spec")
    if not isinstance(spec, MappingNode):
        return False
    sources = [s for s in [get(spec, "source"), *seq(get(spec, "sources"))] if isinstance(s, MappingNode)]
    found = False
    for source in sources:
        helm = get(source, "helm")
        where = text(get(source, "path"))
        if not isinstance(helm, MappingNode) or not where or get(source, "chart") is not None:
            continue
        chart = _chart_folder(t.path, where)
        if chart is None or chart in _rendering or len(_rendering) >= _MAX_NESTING:
            continue
        _rendering.append(chart)
        try:
            found = _render(t, helm, chart) or found
        finally:
            _rendering.pop()
    return found


def _chart_folder(path: str, where: str) -> Optional[str]:
    """The chart at ``where`` (a path from the repository's root) in the checkout holding ``path``."""
    if not path or path == "-" or os.path.isabs(where):
        return None
    d = os.path.dirname(os.path.abspath(path))
    for _ in range(64):
        if os.path.isdir(os.path.join(d, ".git")):
            break
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
    else:
        return None
    chart = os.path.normpath(os.path.join(d, where))
    if not (chart + os.sep).startswith(d + os.sep) or not os.path.isfile(os.path.join(chart, "Chart.yaml")):
        return None
    return chart


def _set(values: dict, name: str, value: Any) -> bool:
    """``helm --set name=value`` on ``values``: dotted keys (``a.b``; ``\\.`` a dot in a key), no
    list indices; whether it was set."""
    parts = [p.replace("\0", ".") for p in name.replace("\\.", "\0").split(".")]
    if not all(parts) or any("[" in p for p in parts):
        return False
    cur = values
    for p in parts[:-1]:
        nxt = cur.get(p)
        if not isinstance(nxt, dict):
            nxt = cur[p] = {}
        cur = nxt
    cur[parts[-1]] = value
    return True


def _typed(value: str) -> Any:
    """A ``--set`` value as Helm types it: ``true`` / ``false``, an integer, else the text."""
    if value in ("true", "false"):
        return value == "true"
    if value.isdigit() and (value == "0" or not value.startswith("0")):
        return int(value)
    return value


def _render(t: Any, helm: Any, chart: str) -> bool:
    from vllm_lint import inputs, libyaml
    from vllm_lint.frontends.yaml import _extract
    from vllm_lint.frontends.yaml.chart_values import ChartValues, _defines, _load, _merged

    base = _load(os.path.join(chart, "values.yaml")) or {}
    for f in seq(get(helm, "valueFiles")):
        name = text(f)
        if name and not os.path.isabs(name):
            over = _load(os.path.normpath(os.path.join(chart, name)))
            if over is not None:
                base = _merged(base, over)
    written = get(helm, "values")
    if isinstance(written, ScalarNode) and written.value.strip():
        try:
            over = libyaml.load(written.value.encode())
        except Exception:  # (a values text that does not load: Argo CD would refuse it too)
            over = None
        if isinstance(over, dict):
            base = _merged(base, over)
    obj = get(helm, "valuesObject")
    if isinstance(obj, MappingNode):
        over = py(obj)
        if isinstance(over, dict):
            base = _merged(base, over)
    params: dict = {}  # a parameter's key path -> its value's span in the Application
    values = _copy(base)
    for item in seq(get(helm, "parameters")):
        name, value = text(get(item, "name")), get(item, "value")
        if not name or not isinstance(value, ScalarNode):
            continue
        forced = text(get(item, "forceString")) in ("true", "True")
        if _set(values, name, value.value if forced else _typed(value.value)):
            params[name] = t.node_span(value)
    anchor = t.content_span(helm) or Span(0, 0)
    templates = os.path.join(chart, "templates")
    values = ChartValues(values)
    values.defines, values.chart = _defines(templates), chart
    values.name = "the Application's helm overrides"
    try:
        names = sorted(n for n in os.listdir(templates) if n.endswith((".yaml", ".yml")))
    except OSError:
        return False
    found = False
    shown = os.path.relpath(chart, os.path.dirname(os.path.abspath(t.path)))
    for name in names[:_MAX_TEMPLATES]:
        where = os.path.join(templates, name)
        raw = inputs.read_other(where, _MAX_BYTES)
        if raw is None or b"{{" not in raw:
            continue
        try:
            got = _extract(raw, where, False, values)
        except Exception:  # (a template that does not parse as it renders: read nowhere, as before)
            continue
        for la in got.launches:
            _moved(la, raw, params, anchor, t.path)
            la.read_as = "; ".join(x for x in (
                f"the chart `{shown}` (its `templates/{name}`) as this Application's helm overrides render it",
                la.read_as) if x)
            t.out.launches.append(la)
            found = True
    return found


def _copy(values: Any) -> Any:
    if isinstance(values, dict):
        return {k: _copy(v) for k, v in values.items()}
    if isinstance(values, list):
        return [_copy(v) for v in values]
    return values


# the fields of a launch's records that say where to edit the template: no edit in the Application
_EDIT_FIELDS = ("text_span", "value_text_span", "delete_span", "verbatim", "image_cmd_delete", "script_span",
                "delete_tokens", "replace_entry")


def _moved(la: Any, template: bytes, params: dict, anchor: Span, path: str) -> None:
    """``la``, read in ``template``, placed in the Application: each span at the parameter its
    template text renders from, else at ``anchor``."""

    def where(sp: Span) -> Span:
        if 0 <= sp.start <= sp.end <= len(template):
            for m in _VALUES_REF.finditer(template[sp.start:sp.end].decode("utf-8", "replace")):
                key = m.group(1)[1:]
                while key:
                    got = params.get(key)
                    if got is not None:
                        return got
                    key = key.rpartition(".")[0]
        return anchor

    seen: set = set()

    def walk(obj: Any) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        for slot in getattr(obj.__class__, "__slots__", ()):
            if not hasattr(obj, slot):
                continue
            v = getattr(obj, slot)
            if slot in _EDIT_FIELDS:
                if v is not None:
                    setattr(obj, slot, None)
            elif isinstance(v, Span):
                setattr(obj, slot, where(v))
            elif isinstance(v, list):
                for x in v:
                    if hasattr(x.__class__, "__slots__") and not isinstance(x, (str, Span, tuple)):
                        walk(x)
            elif hasattr(v.__class__, "__slots__") and not isinstance(v, (str, bytes, tuple)):
                walk(v)
        origin = getattr(obj, "origin", None)
        if isinstance(origin, tuple):
            obj.origin = tuple((n, where(w)) if isinstance(w, Span) else (n, w) for n, w in origin)

    walk(la)
    la.span = anchor
    la.path = path
