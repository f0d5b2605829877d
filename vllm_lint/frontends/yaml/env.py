"""Environment variables of Kubernetes containers (``env: [{name, value | valueFrom}]``; ``$(VAR)``
values are opaque) and of compose services (``environment:`` as a list of ``NAME=value`` or a
map), each with the spans a fix needs and the lines that delete it."""

from __future__ import annotations

from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode, SequenceNode
from vllm_lint.frontends.yaml.nodes import NULL, content_end, get, seq, text as node_text
from vllm_lint.frontends.yaml.text import K8S_VAR, YamlText
from vllm_lint.launch import EnvAssign, Span

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any

# variables whose value a known wrapper appends to the vLLM command line (KServe's
# LLMInferenceService: :mod:`.kserve`, :mod:`.llmisvc`); a container's own environment leaves them out
ENV_ARG_CARRIERS = ("VLLM_ADDITIONAL_ARGS",)


def k8s_env(t: YamlText, node: Any) -> list[EnvAssign]:
    """A Kubernetes container's ``env`` list."""
    out = []
    for item in seq(node):
        if not isinstance(item, MappingNode):
            continue
        nm = get(item, "name")
        name = node_text(nm)
        if not name:
            continue
        val = get(item, "value")
        vf = get(item, "valueFrom")
        ea = EnvAssign(name=name, name_span=None, value=None)
        if isinstance(nm, ScalarNode):
            ea.name_span = t.text_span(nm)
        if val is not None and isinstance(val, ScalarNode):
            ea.value = val.value if val.tag != NULL else ""
            ea.value_span = t.node_span(val)
            ea.value_text_span = t.text_span(val)
            if "$(" in ea.value and K8S_VAR.search(ea.value):
                ea.value_opaque = True
        elif vf is not None or val is not None:
            ea.value_opaque = True
        s = t.pos(item.start_mark.index)
        e = t.pos(content_end(item))
        ea.delete_span = t.line_block(s, e, allow_dash=True)
        out.append(ea)
    return out


def compose_env(t: YamlText, node: Any) -> list[EnvAssign]:
    """A compose-style environment: a list of ``NAME=value`` strings or a ``NAME: value`` map (also
    SkyPilot ``envs``, dstack ``env``, GitHub Actions ``env``)."""
    if isinstance(node, SequenceNode):
        return [ea for item in node.value if (ea := _list_item(t, item)) is not None]
    out = []
    if isinstance(node, MappingNode):
        for k, v in node.value:
            name = node_text(k)
            if not name:
                continue
            ea = EnvAssign(name=name, name_span=None, value=None)
            ea.name_span = t.text_span(k)
            if isinstance(v, ScalarNode) and v.tag != NULL:
                ea.value = v.value
                ea.value_span = t.node_span(v)
                ea.value_text_span = t.text_span(v)
                if "$" in v.value:
                    ea.value_opaque = True
            else:
                ea.value_opaque = True
            ks = t.pos(k.start_mark.index)
            ea.delete_span = t.line_block(ks, t.pos(content_end(v)))
            out.append(ea)
    return out


def _list_item(t: YamlText, item: Any) -> Any:
    """One ``NAME=value`` item of a compose environment list (None for an empty one)."""
    s_ = node_text(item)
    if not s_:
        return None
    whole = t.text_span(item)  # a value spelled as one run: its parts are runs too
    name, eq, value = s_.partition("=")
    ea = EnvAssign(name=name.strip(), name_span=None, value=value if eq else None)
    if whole is not None:
        ea.name_span = Span(whole.start, whole.start + len(name.encode()))
        if eq:
            ea.value_span = Span(ea.name_span.end + 1, whole.end)
            ea.value_text_span = ea.value_span
    if not eq or "$" in value:
        ea.value_opaque = True
    s = t.pos(item.start_mark.index)
    ea.delete_span = t.line_block(s, t.pos(item.end_mark.index), allow_dash=True)
    return ea
