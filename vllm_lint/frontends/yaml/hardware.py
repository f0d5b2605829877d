"""GPU facts stated next to a launch: Kubernetes ``resources`` limits/requests (``nvidia.com/gpu``,
``amd.com/gpu``), ``nodeSelector`` and node affinity (``nvidia.com/gpu.product``,
``cloud.google.com/gke-accelerator``, ``karpenter.k8s.aws/instance-gpu-name``), compose
``deploy.resources.reservations.devices`` and ``gpus``, and accelerator strings of task files
(``"H100:8"``)."""

from __future__ import annotations

import re

from vllm_lint.frontends.yaml.loader import MappingNode
from vllm_lint.frontends.yaml.nodes import descendants, get, seq, text, to_int
from vllm_lint.launch import Hardware

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

GPU_RESOURCE_KEYS = ("nvidia.com/gpu", "amd.com/gpu")
# keys of a mapping that may state hardware (the walk reads it only where one is present)
HW_KEYS = frozenset({"resources", "nodeSelector", "affinity", "size", "resourceProfile"})
GPU_PRODUCT_KEYS = (
    "nvidia.com/gpu.product",
    "cloud.google.com/gke-accelerator",
    "karpenter.k8s.aws/instance-gpu-name",
)


def hw_merge(outer: Hardware, inner: Hardware) -> Hardware:
    """``inner``'s facts, with ``outer``'s where ``inner`` states none."""
    return Hardware(
        gpu_product=inner.gpu_product or outer.gpu_product,
        gpu_count=inner.gpu_count if inner.gpu_count is not None else outer.gpu_count,
        nodes=inner.nodes if inner.nodes is not None else outer.nodes,
        source=inner.source or outer.source,
    )


def parse_accel(spec: str) -> tuple[Optional[str], Optional[int]]:
    """``"H100:8"`` / ``"80GB:4"`` / ``"A100:40GB:2"`` -> (product, count)."""
    product = None
    count = None
    for part in str(spec).split(":"):
        p = part.strip()
        if not p:
            continue
        if p.isdigit():
            count = int(p)
        elif re.match(r"^[\d.]+\s*[GMT]B", p, re.I) or ".." in p:
            continue
        elif product is None:
            product = p
    return product, count


def accelerator_hw(spec: Optional[str], source: str) -> Hardware:
    """The GPUs an accelerator string states (``"H100:2"``, ``"L4"``: one GPU when no count is
    written, as truss reads it; nothing for a template's placeholder); ``source``: where it is
    written."""
    if not spec or any(c in spec for c in "{}<>$"):  # empty, or a placeholder a template fills
        return Hardware()
    product, count = parse_accel(spec)
    if product is None and count is None:
        return Hardware()
    return Hardware(gpu_product=product, gpu_count=count if count is not None else 1, source=source)


def hardware_here(node: Any) -> Hardware:
    """GPU facts stated directly in this mapping (resources, nodeSelector, affinity, ...)."""
    hw = Hardware()
    res = get(node, "resources")
    if isinstance(res, MappingNode):
        for part in ("limits", "requests"):
            sect = get(res, part)
            for key in GPU_RESOURCE_KEYS:
                n = to_int(text(get(sect, key)))
                if n is not None and hw.gpu_count is None:
                    hw.gpu_count = n
                    hw.source = f"resources.{part}.{key}"
    ns = get(node, "nodeSelector")
    for key in GPU_PRODUCT_KEYS:
        v = text(get(ns, key))
        if v:
            hw.gpu_product = v
            hw.source = hw.source or f"nodeSelector.{key}"
            break
    aff = get(node, "affinity")
    if aff is not None and hw.gpu_product is None:
        hw.gpu_product = affinity_product(aff)
        if hw.gpu_product:
            hw.source = hw.source or "affinity"
    return hw


def affinity_product(node: Any) -> Optional[str]:
    """The GPU product a node-affinity term (anywhere below ``node``) selects."""
    for n in descendants(node):
        if isinstance(n, MappingNode) and text(get(n, "key")) in GPU_PRODUCT_KEYS:
            for v in seq(get(n, "values")):
                if text(v):
                    return text(v)
    return None


def compose_hw(node: Any) -> Hardware:
    """A compose service's GPUs: ``deploy.resources.reservations.devices`` or ``gpus``."""
    hw = Hardware()
    devs = get(get(get(get(node, "deploy"), "resources"), "reservations"), "devices")
    for d in seq(devs):
        caps = [text(c) for c in seq(get(d, "capabilities"))]
        drv = text(get(d, "driver")) or ""
        if "gpu" not in caps and drv not in ("nvidia", "amd"):
            continue
        n = to_int(text(get(d, "count")))
        ids = seq(get(d, "device_ids"))
        if n is None and ids:
            n = len(ids)
        if n is not None:
            hw.gpu_count = n
        hw.source = "compose.deploy.devices"
    gpus = get(node, "gpus")
    if gpus is not None and hw.gpu_count is None:
        n = to_int(text(gpus))
        if n is not None:
            hw.gpu_count = n
        hw.source = hw.source or "compose.gpus"
    return hw
