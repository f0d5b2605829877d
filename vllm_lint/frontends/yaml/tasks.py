"""Task runners: SkyPilot (``setup``/``run``, ``resources.accelerators``, ``num_nodes``, ``envs``)
and dstack (``type: task|service|dev-environment`` with ``commands``, ``resources.gpu``,
``nodes``, ``env``). The hardware and environment they state apply to every launch of the
document."""

from __future__ import annotations

from vllm_lint.frontends.yaml.env import compose_env
from vllm_lint.frontends.yaml.hardware import parse_accel
from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode, SequenceNode
from vllm_lint.frontends.yaml.nodes import get, seq, text, to_int
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.launch import EnvAssign, Hardware

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any


def task_context(t: YamlText, top: dict[str, Any]) -> tuple[Hardware, list[EnvAssign]]:
    """The hardware and environment a task file (its top-level keys ``top``) gives its launches."""
    res = top.get("resources")
    acc = get(res, "accelerators")
    if acc is not None and (top.get("run") is not None or top.get("setup") is not None):
        prod, cnt = None, None
        if isinstance(acc, ScalarNode):
            prod, cnt = parse_accel(acc.value)
        elif isinstance(acc, MappingNode) and acc.value:
            prod = text(acc.value[0][0])
            cnt = to_int(text(acc.value[0][1]))
        elif isinstance(acc, SequenceNode) and acc.value:
            prod, cnt = parse_accel(text(acc.value[0]) or "")
        hw = Hardware(gpu_product=prod, gpu_count=cnt,
                      nodes=to_int(text(top.get("num_nodes"))), source="skypilot")
        return hw, compose_env(t, top.get("envs"))
    if text(top.get("type")) in ("task", "service", "dev-environment") and (
        top.get("commands") is not None
    ):
        gpu = get(res, "gpu")
        prod, cnt = (None, None)
        if isinstance(gpu, ScalarNode):
            prod, cnt = parse_accel(gpu.value)
        elif isinstance(gpu, MappingNode):
            nm = get(gpu, "name")
            prod = text(nm) or (text(seq(nm)[0]) if seq(nm) else None)
            cnt = to_int(text(get(gpu, "count")))
        hw = Hardware(gpu_product=prod, gpu_count=cnt,
                      nodes=to_int(text(top.get("nodes"))), source="dstack")
        return hw, compose_env(t, top.get("env"))
    return Hardware(), []
