"""Task runners: SkyPilot (``setup``/``run``, ``resources.accelerators``, ``num_nodes``, ``envs``,
``resources.image_id: docker:<image>``, per entry of ``resources.any_of`` / ``ordered`` too)
and dstack (``type: task|service|dev-environment`` with ``commands``, ``resources.gpu``,
``nodes``, ``env``). The hardware and environment they state apply to every launch of the
document; a SkyPilot task's container (its ``PLATFORMS`` row, "skypilot": the image its scripts
run in, their environment and GPUs) is given to the launches of its ``run`` and ``setup`` scripts."""

from __future__ import annotations

from vllm_lint import container as platforms
from vllm_lint.container import Container

from vllm_lint.frontends.yaml.env import compose_env
from vllm_lint.frontends.yaml.hardware import parse_accel
from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode, SequenceNode
from vllm_lint.frontends.yaml.nodes import get, seq, text, to_int
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.launch import EnvAssign, Hardware, Span

_SKYPILOT = platforms.platform("skypilot")
_SCRIPTS = ("setup", _SKYPILOT.marker)  # the task's shell scripts, run in its container
_DOCKER = "docker:"  # image_id's prefix for a container image (else a VM image)


def _resources(res: Any) -> list:
    """A SkyPilot task's resource mappings: ``resources`` itself, then the entries of its
    ``any_of`` / ``ordered`` lists (the task runs on one of them)."""
    if not isinstance(res, MappingNode):
        return []
    out = [res]
    for key in ("any_of", "ordered"):
        out.extend(item for item in seq(get(res, key)) if isinstance(item, MappingNode))
    return out


def _docker_images(entries: list) -> list[tuple[str, Any]]:
    """The container images (``docker:<image>``, prefix cut) the resource mappings' ``image_id``
    name, with their nodes: a string, or a mapping of region to image."""
    out = []
    for res in entries:
        node = get(res, "image_id")
        values = [v for _k, v in node.value] if isinstance(node, MappingNode) else [node]
        for v in values:
            raw = text(v) if isinstance(v, ScalarNode) else None
            if raw and raw.strip().startswith(_DOCKER) and raw.strip()[len(_DOCKER):].strip():
                out.append((raw.strip()[len(_DOCKER):].strip(), v))
    return out


class TaskContainer:
    """A SkyPilot task's container and the spans of its scripts (``run``, ``setup``): a launch that
    starts inside one of them runs in the container."""

    __slots__ = ("container", "scripts")

    def __init__(self, container: Container, scripts: list[Span]) -> None:
        self.container = container
        self.scripts = scripts

    def holds(self, offset: int) -> bool:
        return any(s.start <= offset < s.end for s in self.scripts)


def task_container(t: YamlText, top: dict[str, Any], hw: Hardware, env: list[EnvAssign]) -> Optional[TaskContainer]:
    """The container of a SkyPilot task (its root's keys ``top``; ``hw`` and ``env``: what
    :func:`task_context` read), when ``resources.image_id`` names one image (one release: two
    entries naming different images leave the release to the rest of the repository)."""
    from vllm_lint.frontends.yaml.containers import image_version

    scripts = [sp for key in _SCRIPTS if isinstance(top.get(key), ScalarNode)
               for sp in (t.content_span(top[key]),) if sp is not None]
    if not scripts:
        return None
    images = _docker_images(_resources(top.get("resources")))
    if len({image for image, _n in images}) != 1:
        return None
    image, node = images[0]
    box = Container(_SKYPILOT.name, scripts[-1], name=text(top.get("name")), image=image,
                    image_span=t.node_span(node), run_image=image, command=[], env=list(env), hardware=hw,
                    version_hints=image_version(t, image, node, False))
    return TaskContainer(box, scripts)

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional


def task_context(t: YamlText, top: dict[str, Any]) -> tuple[Hardware, list[EnvAssign]]:
    """The hardware and environment a task file (its top-level keys ``top``) gives its launches."""
    res = top.get("resources")
    acc = get(res, "accelerators")
    if acc is None and (top.get("run") is not None or top.get("setup") is not None):
        # (one of `any_of` / `ordered`: the first entry that states its accelerators)
        acc = next((a for r in _resources(res)[1:] for a in (get(r, "accelerators"),) if a is not None), None)
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
