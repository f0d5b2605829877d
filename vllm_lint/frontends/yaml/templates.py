"""Template expressions (``{{ ... }}``: Helm, KServe ``{{.Name}}``, GitHub Actions ``${{ }}``).

A file with them is not YAML as written. Each expression is replaced with same-length filler
(blank for a line that holds only template actions or for an action that renders no text, ``_``
inline), which keeps every byte offset. Go's control flow is read as it renders
(:func:`fill_templates`): the branches of an ``if`` that do not render are blanked when literals or
the chart's values decide it, and a ``\\`` continuation survives a ``{{-`` that joins lines.
Values touched by a template become opaque; when templates touch a launch (or the filled text
still does not parse) one informational ``VL002`` note says so. What a Helm expression renders
when it carries a literal ``default`` is read in :mod:`.helm`.
"""

from __future__ import annotations

import re

from bisect import bisect_right

from vllm_lint.launch import MAX_TEMPLATE_REGIONS, Extraction, Note, Span, Token, TooLarge
from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, AnyStr, Iterator, Optional

# version hints read from what a templated image renders (:mod:`.helm`): kept, whatever they touch
RENDERED_SOURCES = ("helm-default", "helm-values")
MAX_REGION = 20000  # a longer "expression" is no template action (a stray `{{` far from a `}}`)


def _fill_table(fill: bytes) -> bytes:
    """A ``bytes.translate`` table: every byte to ``fill`` but the line breaks (LF, CR), kept (no
    loop over the 256 bytes at import: issue 31's seventh pass)."""
    return fill * 10 + b"\n" + fill * 2 + b"\r" + fill * 242


_BLANK_FILL = _fill_table(b" ")
_INLINE_FILL = _fill_table(b"_")


def template_spans(text: AnyStr) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each ``{{ ... }}`` of ``text``: from a ``{{`` to the first ``}}`` after
    it (line breaks included), as Go's template lexer reads actions; in one pass."""
    from vllm_lint.frontends.delimited import delimited

    return delimited(text, *(("{{", "}}") if isinstance(text, str) else (b"{{", b"}}")))


def strip_templates(text: bytes) -> bytes:
    """``text`` without its ``{{ ... }}`` expressions."""
    out, pos = [], 0
    for s, e in template_spans(text):
        out.append(text[pos:s])
        pos = e
    out.append(text[pos:])
    return b"".join(out)


def fill_templates(data: bytes, values: Optional[dict] = None) -> tuple[bytes, list[tuple[int, int]]]:
    """Replace each ``{{ ... }}`` with same-length filler; return the new bytes and regions (an
    ``if`` block whose branch cannot be decided is one region, whatever it holds).

    What Go's templates remove as they render is blanked too: the branches of an ``if``/``else
    if``/``else`` that do not render, when the conditions are decided by literals or by the chart's
    ``values`` (:func:`_rendering`). Line breaks stay (fixes find lines by them); where rendering
    joins a shell line continued with ``\\`` to the text after what it removes (the whitespace
    before a ``{{-``, a dropped branch), the blank lines continue it (:func:`_continue_lines`).

    Raises :class:`~vllm_lint.launch.TooLarge` past the file's budget of expressions."""
    regions = [(s, e) for s, e in template_spans(data) if e - s <= MAX_REGION]
    if not regions:
        return data, regions
    if len(regions) > MAX_TEMPLATE_REGIONS:
        raise TooLarge(f"more than {MAX_TEMPLATE_REGIONS:,} template expressions (the per-file budget)")
    removed, unknown, control = _rendering(data, regions, values)
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
            blank_line = blank_lines[(ls, le)] = (not strip_templates(data[ls:le]).strip()
                                                  and not _renders_words(data[ls:le], values))
        # every byte but line breaks -> ' ' or '_' (an action that renders no text: ' ')
        out[s:e] = data[s:e].translate(_BLANK_FILL if blank_line or (s, e) in control else _INLINE_FILL)
    # `${{` (GitHub Actions) leaves `$____`: a shell variable, which is opaque anyway
    for a, b in removed:
        out[a:b] = data[a:b].translate(_BLANK_FILL)
    if removed:
        _continue_lines(data, out, _union(removed + list(control)))
    if b"|" in data or b">" in data:
        block_scalar_leads(out)
    if unknown:
        expressions = len(regions)
        regions = Regions(_union(regions + unknown))
        regions.unknown, regions.expressions = _union(unknown), expressions
    return bytes(out), regions


_BLOCK_HEADER = lazy_re(rb"(?:^|:|-)[ \t]+[|>][-+1-9]{0,2}[ \t]*(?:#[^\n]*)?\r?$|^[ \t]*[|>][-+1-9]{0,2}[ \t]*\r?$", re.M)


def block_scalar_leads(out: bytearray) -> None:
    """A block scalar (``image: >-``) whose first lines held only template actions (``{{- if ... }}``
    above the text each branch renders) starts with lines of spaces longer than its text's
    indentation: YAML takes the longest for the scalar's indentation and the text below it ends the
    scalar (an error), where rendering removes those lines. The spaces past the text's column on
    such lines become lone ``\\r`` (empty lines to YAML; same length, and the ``\\n`` that count a
    file's lines are kept)."""
    for m in _BLOCK_HEADER.finditer(out):
        header_start = out.rfind(b"\n", 0, m.start()) + 1
        header_indent = len(out[header_start:m.end()]) - len(out[header_start:m.end()].lstrip(b" "))
        pos = m.end() + 1
        blank: list[tuple[int, int]] = []  # (line start, line end) of the leading lines of spaces
        while pos < len(out):
            end = out.find(b"\n", pos)
            if end < 0:
                end = len(out)
            line = out[pos:end].rstrip(b"\r")
            if line.strip(b" "):
                indent = len(line) - len(line.lstrip(b" "))
                if indent > header_indent:
                    for a, b in blank:
                        if b - a > indent:
                            out[a + indent:b] = b"\r" * (b - a - indent)
                break
            blank.append((pos, pos + len(line)))
            pos = end + 1


def _renders_words(line: bytes, values: Optional[dict]) -> bool:
    """Whether a line of only template actions renders words from the chart (a named template's
    arguments on a shell line of their own), not a YAML structure nor nothing: it keeps its
    filler, as a line of text."""
    if values is None:
        return False
    from vllm_lint.frontends.yaml.chart_values import render_expr

    raw = line.decode("utf-8", "replace")
    for start, end in template_spans(raw):
        text = render_expr(raw[start:end], values)
        if text is not None and "\n" in text.strip() and all(
                x.rstrip().endswith("\\") for x in text.strip().split("\n")[:-1]):
            return True  # (a command line's words over lines continued with `\`: `indent N | trim`)
        if text is None or not text.strip() or "\n" in text.strip():
            continue
        text = text.strip()
        if not (text.startswith(("- ", "#")) or ": " in text or text.endswith(":")):
            return True
    return False


class Regions(list):
    """Template regions, sorted and disjoint; ``unknown``: the ``if`` blocks among them whose branch
    is not decided (the words they hold may be others, or none: splats to the argv parser)."""

    unknown: list[tuple[int, int]] = []
    expressions = 0  # how many ``{{ ... }}`` the regions hold


def _continue_lines(data: bytes, out: bytearray, runs: list[tuple[int, int]]) -> None:
    """A shell line continued (``\\``) into text that renders nothing (``runs``, blank in ``out``)
    continues past it, as the rendered file's joined lines do: each blank line of the run ends with
    a ``\\`` too. (Line breaks stay where they are written, so that fixes find the lines.)"""
    for a, b in runs:
        if a < 2 or out[a - 1] != 0x5C or out[a - 2] not in (0x20, 0x09) or out[a:b].strip() \
                or data[b:b + 1] not in (b"\n", b"\r"):
            continue  # (a shell continuation follows a word: ` \`; `C:\` ends a YAML value)
        i = data.find(b"\n", a + 1, b + 1)
        while i != -1:
            j = i - 2 if data[i - 1:i] == b"\r" else i - 1
            if j >= a and out[j] == 0x20:
                out[j] = 0x5C
            i = data.find(b"\n", i + 1, b + 1)


def _union(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sorted, disjoint union of ``spans``."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            if b > out[-1][1]:
                out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


_WHITESPACE = b" \t\r\n"
_OPENERS = (b"if", b"with", b"range", b"define", b"block")
_UNKNOWN = object()  # a value no static reading gives


def _rendering(data: bytes, regions: list[tuple[int, int]], values: Optional[dict]
               ) -> tuple[list[tuple[int, int]], list[tuple[int, int]], set[tuple[int, int]]]:
    """What rendering removes besides the actions: (the runs it removes: whitespace before a
    ``{{-``, the branches of a decided ``if`` that do not render; the ``if`` blocks whose branch is
    unknown and that have more than one, from ``{{ if`` to ``{{ end }}``; the actions that render no
    text: control words and comments).

    An ``if`` with no ``else`` whose condition is unknown keeps its text: it is what the template
    renders when it renders anything (a chart's ``{{- if .Values.enabled }}`` around the file). A
    ``right-trim`` (``-}}``) is not applied: the text after it would keep its column, where the
    rendered file moves it (a YAML indentation that rendering does not give)."""
    removed: list[tuple[int, int]] = []
    unknown: list[tuple[int, int]] = []
    expressions = 0  # how many ``{{ ... }}`` the regions hold
    control: set[tuple[int, int]] = set()
    stack: list[tuple[bytes, int, list[list]]] = []  # (opener, its start, branches [cond, body start, body end])
    for s, e in regions:
        body = data[s + 2:e - 2]
        if body[:1] == b"-" and body[1:2] and body[1:2] in _WHITESPACE:  # `{{- ` trims what precedes
            j = s
            while j > 0 and data[j - 1:j] in (b" ", b"\t", b"\r", b"\n"):
                j -= 1
            if j < s:
                removed.append((j, s))
            body = body[1:]
        if body[-1:] == b"-" and body[-2:-1] and body[-2:-1] in _WHITESPACE:
            body = body[:-1]
        body = body.strip()
        word = body.split(None, 1)[0] if body else b""
        if body.startswith(b"/*"):
            control.add((s, e))
        elif word in _OPENERS:
            control.add((s, e))
            stack.append((word, s, [[body[len(word):].strip(), e]]))
        elif word == b"else" and stack:
            control.add((s, e))
            branches = stack[-1][2]
            branches[-1].append(s)
            rest = body[4:].strip()
            cond: Any = None if not rest else rest[2:].strip() if rest.split(None, 1)[0] == b"if" else _UNKNOWN
            branches.append([cond, e])
        elif word == b"end" and stack:
            control.add((s, e))
            opener, start, branches = stack.pop()
            branches[-1].append(s)
            if opener == b"if":
                _decide(branches, values, (start, e), removed, unknown, _gates_a_resource(data, start, branches))
    return removed, unknown, control


_RESOURCE_KEY = lazy_re(rb"^(?:kind|apiVersion):", re.M)


def _gates_a_resource(data: bytes, start: int, branches: list[list]) -> bool:
    """Whether an ``if`` with no ``else`` is a chart's switch around whole resources: it opens a
    line at its first column, tests the values and holds a resource's ``kind:`` / ``apiVersion:``
    at a line's start (``{{- if eq .Values.topology "multiNode" }}`` around a file)."""
    if len(branches) != 1 or b".Values" not in branches[0][0]:
        return False
    line_start = data.rfind(b"\n", 0, start) + 1
    _cond, bs, be = branches[0]
    return not data[line_start:start].strip() and start == line_start and bool(_RESOURCE_KEY.search(data, bs, be))


def _decide(branches: list[list], values: Optional[dict], span: tuple[int, int],
            removed: list[tuple[int, int]], unknown: list[tuple[int, int]], gate: bool = False) -> None:
    """Note the text of the ``if`` chain ``branches`` ([condition or None for ``else``, body start,
    body end]) that does not render, or the chain's ``span`` as unknown. ``gate``: the chain is a
    chart's switch around whole resources (:func:`_gates_a_resource`): their text is what the chart
    renders once a user turns it on, so it is read even when the chart's defaults leave it off."""
    chosen = None
    for k, (cond, _bs, _be) in enumerate(branches):
        truth = True if cond is None or gate else _truth(cond, values)
        if truth is None:
            if len(branches) > 1:
                unknown.append(span)
            return
        if truth:
            chosen = k
            break
    removed.extend((bs, be) for k, (_c, bs, be) in enumerate(branches) if k != chosen)


def _truth(cond: Any, values: Optional[dict]) -> Optional[bool]:
    """Whether a condition holds (Go templates' truth: false, 0, nil and empty are false), for the
    forms a static reading decides: a literal, ``.Values.a.b``, ``not X``, ``and``/``or`` of those,
    ``eq``/``ne`` of two; None otherwise."""
    if cond is _UNKNOWN:
        return None
    words = cond.decode("utf-8", "replace").split()
    if not words or any(w.startswith("(") or w.endswith(")") or w == "|" for w in words):
        return None
    head, args = words[0], words[1:]
    if head == "not" and len(args) == 1:
        t = _term(args[0], values)
        return None if t is None else not t
    if head in ("and", "or") and len(args) >= 2:
        terms = [_term(a, values) for a in args]
        if None in terms:
            return None
        return all(terms) if head == "and" else any(terms)
    if head in ("eq", "ne") and len(args) == 2:
        a, b = _value(args[0], values), _value(args[1], values)
        if a is _UNKNOWN or b is _UNKNOWN:
            return None
        return (a == b) == (head == "eq")
    return _term(head, values) if not args else None


def _term(word: str, values: Optional[dict]) -> Optional[bool]:
    v = _value(word, values)
    if v is _UNKNOWN:
        return None
    return bool(v) if v is not None else False


def _value(word: str, values: Optional[dict]) -> Any:
    """The value of a literal or a ``.Values`` path, or ``_UNKNOWN``."""
    if word in ("true", "false"):
        return word == "true"
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "\"`":
        return word[1:-1] if "\\" not in word else _UNKNOWN
    if word.lstrip("-").isdigit():
        return int(word)
    if not (word.startswith(".Values.") or word.startswith("$.Values.")) or values is None:
        return _UNKNOWN
    node: Any = values
    keys = word.split(".Values.", 1)[1].split(".")
    for k, key in enumerate(keys):
        if not isinstance(node, dict):
            return _UNKNOWN  # (Helm fails on a field of nil)
        node = node.get(key)
        if node is None and k < len(keys) - 1:
            return _UNKNOWN
    return node


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
    count = getattr(regions, "expressions", 0) or len(regions)
    counts = [_blank_launch(regions, la, original, values) for la in out.launches]
    touched = sum(c[0] for c in counts)
    rendered = sum(c[1] for c in counts)
    if failed:
        out.notes.append(Note(
            f"{count} template expression(s) ({{{{ ... }}}}) make this file unparseable "
            "as YAML even with them blanked out; the file was skipped",
            span=Span(regions[0][0], regions[0][1]),
        ))
    elif out.launches:
        # expressions in comments (a values file's commented-out `# key: "{{ .Values.x }}"`) are
        # read as nothing at all
        read = [(s, e) for s, e in regions if not _in_comment(original, s)]
        if not read and not touched:
            return
        count -= sum(max(1, sum(1 for _ in template_spans(original[s:e])))
                     for s, e in regions if _in_comment(original, s))
        # (the values render launch values only: the rest of the expressions, an image's or a
        # name's, are read as unknown even where the values give them)
        out.notes.append(Note(
            (f"{count} template expression(s) ({{{{ ... }}}}): {rendered} launch value(s) rendered from "
             f"the chart's {getattr(values, 'name', 'values.yaml')}, the other expressions read as unknown values"
             if rendered else f"{count} template expression(s) ({{{{ ... }}}}) were read as unknown values")
            + (f"; {touched} launch value(s) they touch are treated as opaque" if touched else ""),
            span=Span(read[0][0], read[0][1]) if read else Span(regions[0][0], regions[0][1]),
        ))


def _in_comment(data: bytes, at: int) -> bool:
    """Whether offset ``at`` is on a comment line (``#`` first on it)."""
    line = data[data.rfind(b"\n", 0, at) + 1:at].lstrip(b" \t")
    return line[:1] == b"#"


def _blank_launch(regions: list[tuple[int, int]], la: Any, original: bytes,
                  values: Optional[dict]) -> tuple[int, int]:
    """Make the values of launch ``la`` that templates touch opaque, or rendered from the chart's
    ``values``: (how many were left opaque, how many were rendered)."""
    from vllm_lint.frontends.yaml.chart_values import render

    touched = rendered_n = 0
    unknown = getattr(regions, "unknown", [])
    split: dict[int, list[str]] = {}  # a shell's word rendered as several (a named template's words)
    for t in la.tokens:
        if t.origin and any(overlaps(regions, sp) for _name, sp in t.origin) and not overlaps(regions, t.span):
            # a value read through a variable whose value a template writes: the word as written, opaque
            t.opaque, t.origin = True, None
            if t.span is not None:
                t.text = _unquoted(original[t.span.start:t.span.end].decode("utf-8", "replace"))
            touched += 1
            continue
        if overlaps(regions, t.span):
            t.text_span = None
            if overlaps(unknown, t.span):  # a branch that may not render: any number of words
                t.opaque = t.splat = la.opaque = True
                touched += 1
                continue
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
                if la.context.get("shell") and len(rendered.split()) > 1:
                    if not any(q in rendered for q in "'\"\\$`"):
                        split[id(t)] = rendered.split()
                    elif not any(q in rendered for q in "$`"):
                        # quotes and `\`-continued lines: the words as the shell reads them
                        words = _shell_split(rendered)
                        if words is not None:
                            split[id(t)] = words
    if split:  # (each word at the expression that renders it: no fix edits them)
        kept = {id(t) for t in la.tokens if id(t) not in split}
        la.tokens = [w for t in la.tokens for w in ([Token(x, t.span) for x in split[id(t)]] if id(t) in split else [t])]
        _no_edit_of_split_words(la, {t.span for t in la.tokens if id(t) not in kept and t.span is not None})
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


def _no_edit_of_split_words(la: Any, shared: set) -> None:
    """A fix may not cut one of the words an expression renders: the cut would take the
    expression, and with it every other word it renders."""
    delete = getattr(la, "delete_tokens", None)
    if delete is None or not shared:
        return

    def delete_tokens(toks: list, _delete=delete, _shared=frozenset(shared)):
        if any(t.span in _shared for t in toks):
            return None
        return _delete(toks)

    la.delete_tokens = delete_tokens


def _shell_split(text: str) -> Optional[list[str]]:
    """The words a POSIX shell reads in ``text`` (quotes, escapes, a backslash-newline), or None."""
    import shlex

    try:
        return shlex.split(re.sub(r"\\\r?\n", "", text), comments=False, posix=True)  # (`\`-newline: joined)
    except ValueError:
        return None


def _unquoted(raw: str) -> str:
    return raw[1:-1] if len(raw) >= 2 and raw[0] in "'\"" and raw[-1] == raw[0] else raw
