"""What a launch says about its GPUs: product and count.

Sources, most specific first: the launch's context (``Launch.hardware``, filled by front-ends from
Kubernetes resources and node selectors, compose device reservations, SkyPilot, dstack),
``CUDA_VISIBLE_DEVICES`` in the launch's environment, then the user's ``--gpu`` / ``--gpus``
settings. Nothing is guessed: unknown stays ``None``.
"""

from __future__ import annotations

import re

from ..record import Record, lazy_re
from .layout import env_lookup

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional


class GPUs(Record):
    """``product`` as written; ``requested``: GPUs the pod / service / task requests; ``visible``:
    GPUs the process may use (CUDA_VISIBLE_DEVICES, else requested); ``visible_listed``: the launch's
    environment lists them (CUDA_VISIBLE_DEVICES), so the ones its layout leaves are idle by its
    own choice; ``visible_opaque``: the launch picks its devices with a value not known statically."""

    __slots__ = ("product", "product_source", "requested", "requested_source", "visible", "visible_source", "nodes",
                 "visible_listed", "visible_opaque")

    def __init__(self, product: Optional[str] = None, product_source: Optional[str] = None,
                 requested: Optional[int] = None, requested_source: Optional[str] = None,
                 visible: Optional[int] = None, visible_source: Optional[str] = None,
                 nodes: Optional[int] = None) -> None:
        self.product = product
        self.product_source = product_source
        self.requested = requested
        self.requested_source = requested_source
        self.visible = visible
        self.visible_source = visible_source
        self.nodes = nodes
        self.visible_listed = False
        self.visible_opaque = False

    @property
    def grace_blackwell(self) -> bool:
        return is_grace_blackwell(self.product)


_FAMILIES = ["gb300", "gb200", "b300", "b200", "h200", "h100", "h20", "h800", "a100", "a800", "l40s", "l40",
             "l4", "l20", "a10g", "a10", "a40", "a6000", "a5000", "a4000", "rtx5090", "rtx4090", "rtx3090",
             "mi355x", "mi325x", "mi300x", "t4", "v100"]
# the ways a workstation or consumer product is written: `RTX A6000` / `rtx-a6000` is the A6000,
# `NVIDIA GeForce RTX 4090` / `NVIDIA-GeForce-RTX-4090` / `RTX4090` the rtx4090 (a bare `RTX 6000`
# stays unknown: the Quadro RTX 6000, the RTX 6000 Ada and the RTX PRO 6000 have 24, 48 and 96 GB)
# (compiled at first use, by a product naming rtx: ~0.6 M instructions at every start-up otherwise)
_RTX_AMPERE = lazy_re(r"(?<![a-z0-9])rtx[ _-]*(?=a\d{4}(?![0-9]))")
_RTX_NUMBER = lazy_re(r"(?<![a-z0-9])rtx[ _-]*(?=\d{4}(?![0-9]))")


def gpu_family(product: Optional[str]) -> Optional[str]:
    """``NVIDIA-H100-80GB-HBM3`` -> ``h100``; ``nvidia-gb200`` -> ``gb200``; unknown -> None."""
    if not product:
        return None
    p = product.lower()
    if "rtx" in p:
        p = _RTX_NUMBER.sub("rtx", _RTX_AMPERE.sub("", p))
    for fam in _FAMILIES:
        pattern = _FAMILY_RES.get(fam)
        if pattern is None:  # (once per family, not a lookup of re's cache by a new string per call)
            pattern = _FAMILY_RES[fam] = re.compile(rf"(?<![a-z0-9]){fam}(?![0-9])")
        if pattern.search(p):
            return fam
    return None


_FAMILY_RES: dict = {}  # family -> its expression (``gpu_family``), compiled at first use


# memory per GPU in GiB, as the vendors' product pages give it; an upper bound of what torch reports
# (an "80GB" H100 reports about 79.6 GiB), so a launch found short of it is short on the real device
_MEMORY_GIB = {"a10g": 24, "a10": 24, "l4": 24, "l40s": 48, "l40": 48, "t4": 16, "h800": 80, "h200": 141, "h20": 96,
               "b200": 180, "mi300x": 192, "mi325x": 256, "mi355x": 288,
               "l20": 48, "a40": 48, "a6000": 48, "a5000": 24, "a4000": 16, "rtx5090": 32, "rtx4090": 24, "rtx3090": 24}


def gpu_memory_gib(product: Optional[str]) -> Optional[int]:
    """Memory of one GPU of ``product`` in GiB, or None when the product string leaves it open
    (an A100 without 40GB / 80GB, an H100 that may be the 94 GB NVL part)."""
    fam = gpu_family(product)
    if fam is None:
        return None
    p = (product or "").lower()
    if fam in ("a100", "a800", "v100"):
        for size in (80, 40, 32, 16):
            if re.search(rf"(?<![0-9]){size}\s*g", p):
                return size if fam != "v100" or size in (16, 32) else None
        return None
    if fam == "h100":
        return None if "nvl" in p or "94" in p or "96" in p else 80
    return _MEMORY_GIB.get(fam)


def is_grace_blackwell(product: Optional[str]) -> bool:
    """GB200 / GB300 (NVL72 racks): the systems where multi-node NVLink exists."""
    if not product:
        return False
    p = product.lower()
    return gpu_family(product) in ("gb200", "gb300") or "nvl72" in p or "nvl36" in p


def count_visible_devices(value: str) -> Optional[int]:
    v = value.strip()
    if v.lower() in ("all", "none", "void"):
        return None
    if v == "":
        return 0
    parts = [p.strip() for p in v.split(",")]
    if not all(p and re.match(r"^(\d+|GPU-[0-9a-fA-F-]+|MIG-[\w/-]+)$", p) for p in parts):
        return None
    return len(parts)


def gpus(ctx) -> GPUs:
    cached = ctx.memo.gpus
    if cached is not None:
        return cached
    g = GPUs()
    hw = ctx.launch.hardware if ctx.launch is not None else None
    if hw is not None:
        if hw.gpu_product:
            g.product, g.product_source = hw.gpu_product, hw.source or "the launch's context"
        if hw.gpu_count is not None:
            g.requested, g.requested_source = hw.gpu_count, hw.source or "the launch's context"
        g.nodes = hw.nodes
    s = ctx.settings
    if g.product is None and getattr(s, "gpu", None):
        g.product, g.product_source = s.gpu, "--gpu"
    if g.requested is None and getattr(s, "gpus", None) is not None:
        g.requested, g.requested_source = s.gpus, "--gpus"
    if g.requested is None:
        # the NVIDIA container runtime gives the container the devices this variable lists
        e = env_lookup(ctx, "NVIDIA_VISIBLE_DEVICES", file_wide=False)
        if e is not None and not e.value_opaque and e.value is not None:
            n = count_visible_devices(e.value)
            if n:
                g.requested, g.requested_source = n, f"NVIDIA_VISIBLE_DEVICES={e.value}"
    e = env_lookup(ctx, "CUDA_VISIBLE_DEVICES", file_wide=False)
    if e is not None and e.value_opaque:
        g.visible_opaque = True  # each launch picks its devices (a loop's $i): the request is shared
    if e is not None and not e.value_opaque and e.value is not None:
        n = count_visible_devices(e.value)
        if n is not None:
            g.visible, g.visible_source = n, f"CUDA_VISIBLE_DEVICES={e.value}"
            g.visible_listed = True
    if g.visible is None and g.requested is not None:
        g.visible, g.visible_source = g.requested, g.requested_source
    ctx.memo.gpus = g
    return g
