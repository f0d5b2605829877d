"""llm-d values: a container with ``modelCommand: vllmServe`` runs ``vllm serve`` with its
``args``."""

from __future__ import annotations

from typing import Any, Optional

from vllm_lint.frontends.yaml.nodes import get, text


def args_entry(node: Any, ctx: dict[str, Any]) -> Optional[str]:
    """The entry of a container with ``args`` and no ``command`` that llm-d starts, or None."""
    return "llm-d:vllmServe" if text(get(node, "modelCommand")) == "vllmServe" else None
