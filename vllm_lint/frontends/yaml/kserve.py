"""KServe: an ``InferenceService`` ``predictor.model`` with a ``huggingface``/``vllm`` model format
(or a vLLM runtime) runs the Hugging Face server, whose ``args`` are its argv: vLLM's options
beside the server's own (listed in ``vllm_lint/wrapper_options.py`` under the launch's entry);
``LLMInferenceService`` appends ``VLLM_ADDITIONAL_ARGS`` to its ``vllm serve`` command, so that
variable is read as an argument list."""

from __future__ import annotations

from typing import Any, Optional

from vllm_lint.frontends.yaml.nodes import get, text

# variables whose value a known wrapper appends to the vLLM command line
ENV_ARG_CARRIERS = ("VLLM_ADDITIONAL_ARGS",)


def is_huggingface_server(node: Any) -> bool:
    """Whether a predictor's model mapping runs the Hugging Face server (or a vLLM runtime)."""
    fmt = get(node, "modelFormat")
    name = (text(get(fmt, "name")) or text(fmt) or "").lower()
    runtime = (text(get(node, "runtime")) or "").lower()
    return "huggingface" in name or "vllm" in name or "vllm" in runtime


def args_entry(node: Any, ctx: dict[str, Any]) -> Optional[str]:
    """The entry of a mapping with ``args`` and no ``command`` that KServe runs, or None."""
    if not is_huggingface_server(node):
        return None
    return "kserve:huggingfaceserver"
