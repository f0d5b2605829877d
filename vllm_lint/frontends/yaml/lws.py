"""LeaderWorkerSet: ``size`` beside a ``leaderTemplate``/``workerTemplate`` is the number of nodes
(pods) of one replica."""

from __future__ import annotations

from vllm_lint.frontends.yaml.nodes import text, to_int

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional


def group_size(keys: dict[str, Any]) -> Optional[int]:
    """The group size a mapping's keys state, or None when it is no LeaderWorkerSet template."""
    size = to_int(text(keys.get("size")))
    if size is not None and ("workerTemplate" in keys or "leaderTemplate" in keys):
        return size
    return None
