"""vLLM ``--config`` files: a flat mapping of option names (``tensor-parallel-size: 2`` or
``tensor_parallel_size: 2``), read as one ``style="config"`` launch of its top-level keys."""

from __future__ import annotations

import re

from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode, prepare
from vllm_lint.frontends.yaml.nodes import get, text
from vllm_lint.frontends.yaml.templates import apply_templates
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.launch import Extraction, Launch, Span

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any

COMMON_OPTIONS = {
    "model", "tensor-parallel-size", "pipeline-parallel-size", "max-model-len",
    "gpu-memory-utilization", "dtype", "port", "host", "served-model-name", "max-num-seqs",
    "max-num-batched-tokens", "enable-prefix-caching", "enable-chunked-prefill", "quantization",
    "kv-cache-dtype", "trust-remote-code", "enforce-eager", "download-dir", "tokenizer",
    "swap-space", "block-size", "seed", "uvicorn-log-level", "api-key", "data-parallel-size",
    "enable-expert-parallel", "compilation-config", "speculative-config", "max-loras",
    "enable-lora", "lora-modules", "chat-template", "tool-call-parser", "enable-auto-tool-choice",
    "reasoning-parser", "disable-log-requests", "disable-log-stats", "load-format",
    "num-scheduler-steps", "distributed-executor-backend", "limit-mm-per-prompt",
    "revision", "max-logprobs", "hf-overrides", "override-generation-config",
    "tokenizer-mode", "max-cudagraph-capture-size", "attention-backend", "async-scheduling",
    "max-seq-len-to-capture", "disable-custom-all-reduce", "enable-sleep-mode", "cpu-offload-gb",
    "max-lora-rank", "kv-transfer-config", "enable-eplb", "mm-processor-kwargs", "generation-config",
    "preemption-mode", "scheduling-policy", "guided-decoding-backend", "all2all-backend",
}


def norm_key(k: str) -> str:
    """An option key as COMMON_OPTIONS spells it (``--no-x`` and ``no_x`` name the switch ``x``)."""
    key = k.strip().lower().replace("_", "-").lstrip("-")
    return key[3:] if key.startswith("no-") and key[3:] in COMMON_OPTIONS else key


def looks_like_config_file(root: Any) -> bool:
    """A flat top-level mapping whose keys mostly look like vLLM options."""
    if not isinstance(root, MappingNode) or not root.value:
        return False
    keys = [text(k) for k, _v in root.value]
    if any(k is None for k in keys):
        return False
    model = get(root, "model")
    if model is not None and not isinstance(model, ScalarNode):
        return False  # a vLLM config's model is a name; a mapping is another file's (vLLM recipes')
    known = sum(1 for k in keys if norm_key(k) in COMMON_OPTIONS)  # type: ignore[arg-type]
    if not known:
        return False  # (a Deployment's keys: the shapes need not be checked)
    shaped = sum(1 for k in keys if re.match(r"^[a-z][a-z0-9]*([-_][a-z0-9]+)*$", k or ""))
    return known >= 1 and shaped == len(keys) and known * 2 >= len(keys) - 1


def config_launch(t: YamlText, root: Any) -> Launch:
    """The launch of a config file's document ``root``."""
    keyed = t.keyed_args(root, style_of=lambda k: "dash" if "-" in k else "snake")
    return Launch(
        path=t.path, entry="config-file", style="config",
        span=t.content_span(root) or Span(0, len(t.data)), keyed=keyed,
    )


def extract_config_file(data: bytes, path: str) -> Extraction:
    """A vLLM ``--config`` YAML: one ``style="config"`` launch of its top-level keys.

    Called when a launch references the file (``vllm serve --config x.yaml``), so no shape check
    is made beyond the top level being a mapping.
    """
    out = Extraction()
    filled, regions = prepare(data)
    t = YamlText(filled, path, out, regions=regions)
    docs = t.parse()
    for root in docs:
        if isinstance(root, MappingNode):
            out.launches.append(config_launch(t, root))
    apply_templates(t.regions, out, data)
    return out
