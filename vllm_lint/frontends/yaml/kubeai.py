"""KubeAI ``Model`` (``engine: VLLM``): ``spec.args`` are vLLM's options, ``spec.env`` (a map) its
environment, ``spec.url`` names the model, ``resourceProfile`` (``nvidia-gpu-h100:8``) the GPUs;
a model with no ``args`` is a launch too."""

from __future__ import annotations

from vllm_lint.frontends.yaml.nodes import get, text, to_int
from vllm_lint.launch import Hardware

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional


def is_vllm_model(keys: dict[str, Any]) -> bool:
    """Whether a mapping's keys are a KubeAI model's that vLLM serves (a ``Model``'s ``spec``, or a
    model of the chart's catalog)."""
    return "url" in keys and (text(keys.get("engine")) or "").lower() == "vllm"


def args_entry(node: Any, ctx: dict[str, Any]) -> Optional[str]:
    """The entry of a mapping with ``args`` and no ``command`` that KubeAI runs with vLLM, or
    None."""
    if (text(get(node, "engine")) or "").lower() != "vllm":
        return None
    if text(get(node, "url")):
        ctx["model"] = text(get(node, "url"))
    return "kubeai:VLLM"


def resource_profile(here: Hardware, profile: Optional[str]) -> None:
    """Add what a ``resourceProfile`` says to ``here`` (``"cpu:6"`` is six CPU units, no GPU)."""
    if profile and ":" in profile and "gpu" in profile.lower():
        p, _sep, c = profile.rpartition(":")
        here.gpu_product = here.gpu_product or p
        if here.gpu_count is None:
            here.gpu_count = to_int(c)
        here.source = here.source or "kubeai.resourceProfile"
