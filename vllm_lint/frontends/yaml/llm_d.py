"""llm-d values: a container with ``modelCommand: vllmServe`` runs ``vllm serve`` with its
``args``."""

from __future__ import annotations

from vllm_lint.frontends.yaml.nodes import get, text

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional


def args_entry(node: Any, ctx: dict[str, Any]) -> Optional[str]:
    """The entry of a container with ``args`` and no ``command`` that llm-d starts, or None."""
    return "llm-d:vllmServe" if text(get(node, "modelCommand")) == "vllmServe" else None
