"""Template expressions (``{{ ... }}``: Helm, KServe ``{{.Name}}``, GitHub Actions ``${{ }}``).

A file with them is not YAML as written. Each expression is replaced with same-length filler
(blank for a line that holds only template actions, ``_`` inline), which keeps every byte offset.
Values touched by a template become opaque; when templates touch a launch (or the filled text
still does not parse) one informational ``VL002`` note says so. What a Helm expression renders
when it carries a literal ``default`` is read in :mod:`.helm`.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, AnyStr, Iterator, Optional

from vllm_lint.frontends.delimited import delimited
from vllm_lint.frontends.yaml.chart_values import render
from vllm_lint.launch import MAX_TEMPLATE_REGIONS, Extraction, Note, Span, TooLarge

# version hints read from what a templated image renders (:mod:`.helm`): kept, whatever they touch
RENDERED_SOURCES = ("helm-default", "helm-values")
MAX_REGION = 20000  # a longer "expression" is no template action (a stray `{{` far from a `}}`)

_BLANK_FILL = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))
_INLINE_FILL = bytes(b if b in (0x0A, 0x0D) else 0x5F for b in range(256))


def template_spans(text: AnyStr) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each ``{{ ... }}`` of ``text``: from a ``{{`` to the first ``}}`` after
    it (line breaks included), as Go's template lexer reads actions; in one pass."""
    return delimited(text, *(("{{", "}}") if isinstance(text, str) else (b"{{", b"}}")))


def strip_templates(text: bytes) -> bytes:
    """``text`` without its ``{{ ... }}`` expressions."""
    out, pos = [], 0
    for s, e in template_spans(text):
        out.append(text[pos:s])
        pos = e
    out.append(text[pos:])
    return b"".join(out)


def fill_templates(data: bytes) -> tuple[bytes, list[tuple[int, int]]]:
    """Replace each ``{{ ... }}`` with same-length filler; return the new bytes and regions.

    Raises :class:`~vllm_lint.launch.TooLarge` past the file's budget of expressions."""
    regions = [(s, e) for s, e in template_spans(data) if e - s <= MAX_REGION]
    if not regions:
        return data, regions
    if len(regions) > MAX_TEMPLATE_REGIONS:
        raise TooLarge(f"more than {MAX_TEMPLATE_REGIONS:,} template expressions (the per-file budget)")
    out = bytearray(data)
    # lines that hold only template actions (and spaces) become blank; each line (from the start
    # of a region's first line to the end of its last) is judged once, however many regions it holds
    # (the line's ends are found from the previous region's: many regions on one line stay linear)
    blank_lines: dict[tuple[int, int], bool] = {}
    ls, le, prev_end = 0, -1, 0
    for s, e in regions:
        nl = data.rfind(b"\n", prev_end, s)
        if nl != -1:
            ls = nl + 1
        if le < e:  # else the line break after the previous region is the first after this one
            le = data.find(b"\n", e)
            if le < 0:
                le = len(data)
        prev_end = e
        blank_line = blank_lines.get((ls, le))
        if blank_line is None:
            blank_line = blank_lines[(ls, le)] = not strip_templates(data[ls:le]).strip()
        # every byte but line breaks -> ' ' or '_'
        out[s:e] = data[s:e].translate(_BLANK_FILL if blank_line else _INLINE_FILL)
    # `${{` (GitHub Actions) leaves `$____`: a shell variable, which is opaque anyway
    return bytes(out), regions


def overlaps(regions: list[tuple[int, int]], span: Optional[Span]) -> bool:
    """Whether ``span`` overlaps one of the sorted, disjoint ``regions``."""
    if span is None or not regions:
        return False
    k = bisect_right(regions, (span.end, span.end))
    while k > 0:
        s, e = regions[k - 1]
        if e <= span.start:
            return False
        if s < span.end and e > span.start:
            return True
        k -= 1
    return False


def apply_templates(regions: list[tuple[int, int]], out: Extraction, original: bytes,
                    failed: bool = False, values: Optional[dict] = None) -> None:
    """Make what the template ``regions`` touch opaque, or read it as it renders from a chart's
    ``values`` (:mod:`.chart_values`), and note it (``failed``: the filled text did not parse,
    the file was skipped)."""
    if not regions:
        return
    counts = [_blank_launch(regions, la, original, values) for la in out.launches]
    touched = sum(c[0] for c in counts)
    rendered = sum(c[1] for c in counts)
    if failed:
        out.notes.append(Note(
            f"{len(regions)} template expression(s) ({{{{ ... }}}}) make this file unparseable "
            "as YAML even with them blanked out; the file was skipped",
            span=Span(regions[0][0], regions[0][1]),
        ))
    elif out.launches:
        out.notes.append(Note(
            f"{len(regions)} template expression(s) ({{{{ ... }}}}) were read as unknown values"
            + (f" where the chart's values.yaml does not give them ({rendered} launch value(s) rendered)"
               if rendered else "")
            + (f"; {touched} launch value(s) they touch are treated as opaque" if touched else ""),
            span=Span(regions[0][0], regions[0][1]),
        ))


def _blank_launch(regions: list[tuple[int, int]], la: Any, original: bytes,
                  values: Optional[dict]) -> tuple[int, int]:
    """Make the values of launch ``la`` that templates touch opaque, or rendered from the chart's
    ``values``: (how many were left opaque, how many were rendered)."""
    touched = rendered_n = 0
    for t in la.tokens:
        if overlaps(regions, t.span):
            t.text_span = None
            rendered = None
            if t.span is not None:  # show the expression as written, not the filler
                raw = _unquoted(original[t.span.start:t.span.end].decode("utf-8", "replace"))
                rendered = None if values is None else render(raw, values)
                t.text = raw if rendered is None else rendered
            if rendered is None:
                t.opaque = True
                touched += 1
            else:
                rendered_n += 1
    for ka in la.keyed:
        if overlaps(regions, ka.value_span):
            ka.value_opaque = True
            ka.value = None
            ka.value_text_span = None
            touched += 1
        if overlaps(regions, ka.key_span):
            ka.key_span = None
            touched += 1
    for ea in la.env:
        if overlaps(regions, ea.value_span):
            ea.value_text_span = None
            raw = _unquoted(original[ea.value_span.start:ea.value_span.end].decode("utf-8", "replace"))
            rendered = None if values is None else render(raw, values)
            if rendered is None:
                ea.value_opaque = True
                touched += 1
            else:
                ea.value, ea.value_opaque = rendered, False
                rendered_n += 1
    for vh in la.version_hints:
        if overlaps(regions, vh.span) and vh.source not in RENDERED_SOURCES:
            touched += 1
    la.version_hints = [vh for vh in la.version_hints
                        if vh.source in RENDERED_SOURCES or not overlaps(regions, vh.span)]
    return touched, rendered_n


def _unquoted(raw: str) -> str:
    return raw[1:-1] if len(raw) >= 2 and raw[0] in "'\"" and raw[-1] == raw[0] else raw
