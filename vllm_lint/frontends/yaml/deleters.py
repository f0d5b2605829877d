"""Deleting a launch's words from the file: items of a block or flow sequence, words of a string.

Each token of an argv launch carries a handle saying where its word lives (``("seq", node, i,
item)`` or ``("str", node, scalar map, words, k)``); :func:`make_deleter` turns the handles into
the launch's ``delete_tokens``. An edit is made only where the bytes to cut are known exactly.
"""

from __future__ import annotations

from vllm_lint.frontends.yaml.nodes import content_end
from vllm_lint.launch import Edit, Span, Token

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Optional


def deletions(ranges: list[tuple[int, int]], to_span: Callable[[int, int], Optional[Span]]) -> Optional[list[Edit]]:
    """Deletion edits for ``ranges`` (overlapping ones merged), each mapped to file bytes by
    ``to_span``; None when any range has no exact counterpart in the file."""
    merged: list[list[int]] = []
    for s, e in sorted(ranges):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    edits = []
    for s, e in merged:
        sp = to_span(s, e)
        if sp is None:
            return None
        edits.append(Edit(sp, ""))
    return edits


def seq_delete(text: Any, seq: Any, indices: Iterable[int]) -> Optional[list[Edit]]:
    """Edits that cut items ``indices`` of sequence node ``seq`` of ``text`` (a
    :class:`~.text.YamlText`): whole lines of a block sequence, ``item, `` of a flow one."""
    items = seq.value
    idx = sorted(set(indices))
    if not idx:
        return []
    if not getattr(seq, "flow_style", False):
        edits = []
        for i in idx:
            it = items[i]
            s = text.pos(it.start_mark.index)
            e = text.pos(content_end(it))
            sp = text.line_block(s, e, allow_dash=True)
            if sp is None:
                return None
            edits.append(Edit(sp, ""))
        return edits
    # flow: cut "item, " or ", item"
    dset = set(idx)
    kept = [i for i in range(len(items)) if i not in dset]
    last_kept = kept[-1] if kept else None
    ranges = []
    for i in idx:
        if last_kept is not None and i < last_kept:
            s = text.pos(items[i].start_mark.index)
            e = text.pos(items[i + 1].start_mark.index)
        elif last_kept is not None:
            s = text.pos(items[last_kept].end_mark.index)
            e = text.pos(items[i].end_mark.index)
        else:
            s = text.pos(items[0].start_mark.index)
            e = text.pos(items[-1].end_mark.index)
        ranges.append((s, e))
    return deletions(ranges, text.fspan)


def make_deleter(text: Any, handles: dict[int, Any]) -> Callable[[list[Token]], Optional[list[Edit]]]:
    """A launch's ``delete_tokens``: ``handles`` maps ``id(token)`` to where its word lives."""

    def delete_tokens(tokens: list[Token]) -> Optional[list[Edit]]:
        by_seq: dict[int, tuple[Any, list[int]]] = {}
        by_str: dict[int, tuple[Any, Any, list, list[int]]] = {}
        for t in tokens:
            h = handles.get(id(t))
            if h is None:
                return None
            if h[0] == "seq":
                by_seq.setdefault(id(h[1]), (h[1], []))[1].append(h[2])
            elif h[0] == "str":
                by_str.setdefault(id(h[1]), (h[1], h[2], h[3], []))[3].append(h[4])
            else:
                return None
        edits: list[Edit] = []
        for seq, idx in by_seq.values():
            e = seq_delete(text, seq, idx)
            if e is None:
                return None
            edits.extend(e)
        for node, m, words, idx in by_str.values():
            part = deletions(_word_ranges(words, idx), text.cutter(node, m) or m.span)
            if part is None:
                return None
            edits.extend(part)
        return edits

    return delete_tokens


def _word_ranges(words: list, idx: list[int]) -> list[tuple[int, int]]:
    """The value byte ranges that cut words ``idx`` of a split string with one separator each."""
    ranges = []
    for k in sorted(set(idx)):
        if k > 0:
            ranges.append((words[k - 1][2], words[k][2]))
        elif len(words) > 1:
            ranges.append((words[0][1], words[1][1]))
        else:
            ranges.append((words[0][1], words[0][2]))
    return ranges
