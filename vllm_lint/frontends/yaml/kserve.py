"""KServe: an ``InferenceService`` ``predictor.model`` with a ``huggingface``/``vllm`` model format
(or a vLLM runtime) runs the Hugging Face server, whose ``args`` are its argv (it forwards vLLM's
options, beside its own); ``LLMInferenceService`` appends ``VLLM_ADDITIONAL_ARGS`` to its
``vllm serve`` command, so that variable is read as an argument list."""

from __future__ import annotations

from typing import Any, Optional

from vllm_lint.frontends.yaml.nodes import get, text

# variables whose value a known wrapper appends to the vLLM command line
ENV_ARG_CARRIERS = ("VLLM_ADDITIONAL_ARGS",)

# KServe huggingfaceserver's own options (python/huggingfaceserver/huggingfaceserver/__main__.py
# and kserve.model_server): in the same argv as vLLM's, but not vLLM's
HF_SERVER_OPTIONS = {
    "--model_name", "--model_dir", "--model_id", "--model_revision", "--tokenizer_revision",
    "--max_length", "--disable_lower_case", "--disable_special_tokens", "--tensor_input_names",
    "--backend", "--return_token_type_ids", "--return_probabilities", "--task", "--http_port",
    "--grpc_port", "--workers", "--max_threads", "--max_asyncio_workers", "--enable_grpc",
    "--enable_docs_url", "--enable_latency_logging", "--configure_logging", "--log_config_file",
    "--access_log_format", "--predictor_host", "--predictor_protocol", "--predictor_use_ssl",
    "--predictor_request_timeout_seconds",
}


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
    ctx["wrapper_options"] = sorted(HF_SERVER_OPTIONS)
    return "kserve:huggingfaceserver"
