"""Defaults a release decides at start (the release file's default is ``None``): the value a rule
that needs the number can use for the launch's hardware, where it is known statically.

One row per option and release range, with its source; a rule asks :func:`effective_default` and
gets ``(value, how)`` or ``(None, why not)`` for ``--verbose``.
"""

from __future__ import annotations

from typing import Any, Optional

from ..surface.version import Version
from .hardware import gpu_family
from .layout import _value, as_float

#: GPU families whose platform is CUDA or ROCm (every family ``hardware`` knows)
_CUDA_OR_ROCM = {"gb300", "gb200", "b300", "b200", "h200", "h100", "h20", "h800", "a100", "a800", "l40s", "l40",
                 "l4", "l20", "a10g", "a10", "a40", "a6000", "a5000", "a4000", "rtx5090", "rtx4090", "rtx3090",
                 "mi355x", "mi325x", "mi300x", "t4", "v100"}

#: ``--gpu-memory-utilization`` from 0.34.0: ``None`` in the parser, resolved at start by
#: ``CacheConfig.resolved_gpu_memory_utilization`` (vllm/config/cache.py): 1.0 with the extensible
#: KV cache (sized from the memory free after warm-up), else ``DEFAULT_GPU_MEMORY_UTILIZATION``
#: (0.92). ``enable_extensible_kv_cache`` left unset is enabled on CUDA and ROCm unless
#: ``--kv-cache-memory-bytes`` is set (vllm/config/vllm.py), falling back to estimate-based sizing
#: (0.92) where the driver lacks virtual memory management; ``kv_cache_memory_bytes`` set makes the
#: utilization unused.
GMU_SINCE = "0.34.0"
GMU_EXTENSIBLE = 1.0
GMU_ESTIMATED = 0.92


def effective_default(ctx: Any, lay: Any, dest: str, product: Optional[str]) -> tuple[Optional[float], str]:
    """The number the target release uses for option ``dest`` when the launch does not set it."""
    opt = ctx.surface.by_dest.get(dest)
    if opt is None:
        return None, f"vLLM {ctx.target} has no option for {dest}"
    if not opt.default_computed and opt.default is not None:
        value = as_float(opt.default)
        return (value, f"vLLM {ctx.target}'s default") if value is not None else (None, "its default is no number")
    if dest == "gpu_memory_utilization" and Version(ctx.surface.version) >= Version(GMU_SINCE):
        return _gpu_memory_utilization(ctx, lay, product)
    return None, f"vLLM {ctx.target} decides --{dest.replace('_', '-')} at start, and this rule cannot tell how"


def _gpu_memory_utilization(ctx: Any, lay: Any, product: Optional[str]) -> tuple[Optional[float], str]:
    shown = f"vLLM {ctx.target} decides --gpu-memory-utilization at start"
    if "kv_cache_memory_bytes" in lay.by_dest:
        return None, f"{shown}, and --kv-cache-memory-bytes sizes the KV cache instead"
    arg = lay.by_dest.get("enable_extensible_kv_cache")
    if arg is not None:
        v = _value(arg, "bool")
        if not v.known:
            return None, f"{shown} from --enable-extensible-kv-cache, whose value is not known statically"
        if v.value:
            return GMU_EXTENSIBLE, "decided at start: the extensible KV cache is on"
        return GMU_ESTIMATED, "decided at start: the extensible KV cache is off"
    if gpu_family(product) in _CUDA_OR_ROCM:
        # on by default there; where the driver lacks VMM it falls back to 0.92: the larger budget
        # is the one a "does not fit" finding must beat
        return GMU_EXTENSIBLE, f"decided at start: the extensible KV cache vLLM {ctx.target} enables on CUDA and ROCm"
    return None, f"{shown} from the platform, which is not known"
