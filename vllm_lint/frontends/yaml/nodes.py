"""Small readers of PyYAML nodes: a mapping's value by key, a scalar's text, a node's Python
value (bounded, so alias bombs stay small), where a node's content ends."""

from __future__ import annotations

from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode, SequenceNode

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Iterator, Optional

NULL = "tag:yaml.org,2002:null"


def descendants(root: Any) -> Iterator[Any]:
    """``root`` and every node below it (a mapping's values, a sequence's items), depth first, each
    once: aliases make the node graph cyclic."""
    stack = [root]
    seen: set[int] = set()
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        yield n
        if isinstance(n, MappingNode):
            stack.extend(v for _k, v in n.value)
        elif isinstance(n, SequenceNode):
            stack.extend(n.value)


_MERGE = "tag:yaml.org,2002:merge"  # a plain `<<` key
_MERGE_DEPTH = 8  # merges of merges followed (an anchor may even merge itself: bounded)


def get(node: Any, key: str, _depth: int = 0) -> Any:
    """The value of ``key`` in a mapping node (the first of duplicate keys), or None. A key the
    mapping lacks is looked up in what it merges (``<<: *common``, ``<<: [*a, *b]``: the first
    merged mapping that has it wins), as YAML's merge key does (a compose service taking its
    image from ``x-common: &common``)."""
    if not isinstance(node, MappingNode):
        return None
    merged = None
    for k, v in node.value:
        if isinstance(k, ScalarNode):
            if k.value == key:
                return v
            if k.tag == _MERGE:
                merged = v
    if merged is not None and _depth < _MERGE_DEPTH:
        for source in merged.value if isinstance(merged, SequenceNode) else (merged,):
            found = get(source, key, _depth + 1)
            if found is not None:
                return found
    return None


def keys(node: Any) -> dict[str, Any]:
    """A mapping's values by key, as :func:`get` finds them (the first of duplicate keys; the keys
    it merges after its own)."""
    out: dict[str, Any] = {}
    merged = None
    for k, v in node.value:
        if isinstance(k, ScalarNode) and k.value not in out:
            if k.tag == _MERGE:
                merged = v
                continue
            out[k.value] = v
    for source in merged.value if isinstance(merged, SequenceNode) else (merged,) if merged is not None else ():
        if isinstance(source, MappingNode):
            for k2, v2 in source.value:
                if isinstance(k2, ScalarNode) and k2.value != "<<" and k2.value not in out:
                    out[k2.value] = v2
    return out


def get_pair(node: Any, key: str) -> Any:
    """The (key node, value node) pair of ``key`` in a mapping node, or None."""
    if not isinstance(node, MappingNode):
        return None
    for k, v in node.value:
        if isinstance(k, ScalarNode) and k.value == key:
            return k, v
    return None


def text(node: Any) -> Optional[str]:
    """A scalar's text (None for null and for anything but a scalar)."""
    if isinstance(node, ScalarNode) and node.tag != NULL:
        return node.value
    return None


def seq(node: Any) -> list:
    """A sequence's items ([] for anything else)."""
    return list(node.value) if isinstance(node, SequenceNode) else []


def to_int(v: Any) -> Optional[int]:
    """An int, or a string of digits (quotes allowed), as an int; None for anything else."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        t = v.strip().strip("'\"")
        if t.isdigit():
            return int(t)
    return None


def content_end(node: Any) -> int:
    """End mark index of a node's last content (block collections' end marks run into the next
    line and past trailing comments)."""
    for _ in range(2000):
        if isinstance(node, ScalarNode) or getattr(node, "flow_style", False):
            return node.end_mark.index
        if isinstance(node, MappingNode):
            if not node.value:
                return node.end_mark.index
            node = node.value[-1][1]
        elif isinstance(node, SequenceNode):
            if not node.value:
                return node.end_mark.index
            node = node.value[-1]
        else:
            return node.end_mark.index
    return node.end_mark.index


class PairView:
    """A one-pair mapping view, to read a single key of a larger mapping as a mapping."""

    def __init__(self, pair: tuple):
        self.value = [pair]
        self.flow_style = False


_BOOL_T = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"}


def _scalar_py(node: Any) -> Any:
    tag = node.tag
    v = node.value
    if tag == NULL:
        return None
    if tag == "tag:yaml.org,2002:bool":
        return v in _BOOL_T
    if tag == "tag:yaml.org,2002:int":
        try:
            t = v.replace("_", "")
            if t.startswith(("0o", "0x", "0b", "-0x", "+0x")):
                return int(t, 0)
            return int(t)
        except ValueError:
            return v
    if tag == "tag:yaml.org,2002:float":
        try:
            return float(v.replace("_", ""))
        except ValueError:
            low = v.lower()
            if low in (".inf", "+.inf"):
                return float("inf")
            if low == "-.inf":
                return float("-inf")
            if low == ".nan":
                return float("nan")
            return v
    return v


def py(node: Any, depth: int = 0, budget: Optional[list] = None) -> Any:
    """Python value of a node, bounded in depth and size (alias bombs stay small)."""
    if budget is None:
        budget = [20000]
    budget[0] -= 1
    if budget[0] < 0 or depth > 64:
        return None
    if isinstance(node, ScalarNode):
        return _scalar_py(node)
    if isinstance(node, SequenceNode):
        return [py(x, depth + 1, budget) for x in node.value]
    if isinstance(node, MappingNode):
        out = {}
        for k, v in node.value:
            key = _scalar_py(k) if isinstance(k, ScalarNode) else None
            try:
                out[key] = py(v, depth + 1, budget)
            except TypeError:
                pass
        return out
    return None
