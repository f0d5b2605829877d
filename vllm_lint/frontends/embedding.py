"""Where a text embedded in a file is spelled in that file: one map for every format that holds
another (a Markdown fenced block, a YAML ``sh -c`` scalar, a Dockerfile ``RUN``, a Python
string, a shell heredoc, a notebook cell).

An :class:`Embedding` is the embedded bytes (``text``) and the runs of them that the host spells
verbatim: sorted, non-overlapping ``(text_start, host_start, length)`` segments. A byte outside
every run (an escape's decoded character, a folded line break, a prefix the reader added) has no
counterpart in the host, and a fix never touches it. The front-end that reads the embedded text
works in the text's own offsets; its spans become host spans through the embedding, once
(:func:`rebase`), or as it goes (the shell front-end maps each word).

Nesting composes: a heredoc in a shell block of a Markdown file maps heredoc -> script ->
file with ``heredoc.compose(script)``. Offsets are bytes; lookups bisect the runs (O(log n)).
"""

from __future__ import annotations

from bisect import bisect_right

from vllm_lint.launch import Edit, EnvAssign, Extraction, KeyedArg, Span, Token, VersionHint
from vllm_lint.record import replace

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Callable, Iterable, Optional, Sequence

__all__ = ["Embedding", "rebase"]

Segment = tuple[int, int, int]  # (text_start, host_start, length)


class Embedding:
    """The embedded ``text`` and its verbatim runs in the host (``segments``).

    The end of a run counts as mapped: it maps to just after the run's last host byte, so a span
    that ends there, or an empty span at the end of a value, has a host position too.
    """

    __slots__ = ("text", "segments", "_starts", "_lines")

    def __init__(self, text: bytes, segments: Iterable[Segment] = ()):
        self.text = text
        merged: list[Segment] = []
        for v, h, n in segments:
            if n <= 0:
                continue
            if merged:
                pv, ph, pn = merged[-1]
                if pv + pn == v and ph + pn == h:  # contiguous on both sides: one run
                    merged[-1] = (pv, ph, pn + n)
                    continue
            merged.append((v, h, n))
        self.segments = merged
        self._starts = [s[0] for s in merged]
        # for a dedented text (:meth:`dedent`): text offsets and host offsets of its lines
        self._lines: Optional[tuple[list[int], list[int]]] = None

    def __repr__(self) -> str:
        return f"Embedding({self.text!r}, {self.segments!r})"

    # ---- constructors ---------------------------------------------------------------------

    @classmethod
    def identity(cls, text: bytes, base: int = 0) -> "Embedding":
        """``text`` spelled verbatim in the host from offset ``base`` on."""
        return cls(text, [(0, base, len(text))])

    @classmethod
    def unmapped(cls, text: bytes) -> "Embedding":
        """A text with no verbatim counterpart (findings there are placed by the caller)."""
        return cls(text, ())

    @classmethod
    def from_positions(cls, text: bytes, positions: Sequence[Optional[int]]) -> "Embedding":
        """From one host offset (or None) per byte of ``text``; consecutive bytes at consecutive
        host offsets make a run."""
        segs: list[Segment] = []
        run_v = run_h = -1
        n = 0
        for v, h in enumerate(positions[:len(text)]):
            if h is not None and n and h == run_h + n and v == run_v + n:
                n += 1
                continue
            if n:
                segs.append((run_v, run_h, n))
            run_v, run_h, n = (v, h, 1) if h is not None else (-1, -1, 0)
        if n:
            segs.append((run_v, run_h, n))
        return cls(text, segs)

    @classmethod
    def dedent(cls, block: bytes, base: int, cut: int) -> "Embedding":
        """``block`` (at host offset ``base``) with up to ``cut`` bytes of each line's leading
        blanks removed: each line is one run after its cut. A deletion of whole lines of the
        text takes their cut indentation with it (:meth:`deletion`)."""
        text = bytearray()
        segs: list[Segment] = []
        starts: list[int] = []
        host_lines: list[int] = []
        pos = base
        for line in block.splitlines(keepends=True):
            k = min(cut, len(line) - len(line.lstrip(b" \t")), len(line.rstrip(b"\r\n"))) if cut else 0
            starts.append(len(text))
            host_lines.append(pos)
            segs.append((len(text), pos + k, len(line) - k))
            text += line[k:]
            pos += len(line)
        emb = cls(bytes(text), segs)
        if cut:
            emb._lines = (starts, host_lines)
        return emb

    # ---- lookups --------------------------------------------------------------------------

    def _at(self, off: int) -> int:
        """Index of the last run that starts at or before ``off`` (-1: none)."""
        return bisect_right(self._starts, off) - 1

    def host(self, off: int) -> Optional[int]:
        """Host offset of text offset ``off`` (a run's end included), or None."""
        i = self._at(off)
        if i < 0:
            return None
        v, h, n = self.segments[i]
        return h + off - v if off <= v + n else None

    def span(self, start: int, end: int) -> Optional[Span]:
        """Host span of text bytes ``[start, end)`` when the host spells them as one verbatim
        run, else None (what an edit may replace). An empty span maps where :meth:`host` does."""
        if end <= start:
            a = self.host(start)
            return None if a is None else Span(a, a)
        i = self._at(start)
        if i < 0:
            return None
        v, h, n = self.segments[i]
        if end > v + n:
            return None
        return Span(h + start - v, h + end - v)

    def hull(self, start: int, end: int) -> Optional[Span]:
        """Host span from the first to the last mapped position in ``[start, end)`` (for a
        report: a word whose quotes or escapes have no counterpart still points at its bytes);
        None when nothing there is mapped."""
        if end <= start:
            a = self.host(start)
            return None if a is None else Span(a, a)
        segs = self.segments
        i = self._at(start)
        if i >= 0 and start <= segs[i][0] + segs[i][2]:
            a = segs[i][1] + start - segs[i][0]
        elif i + 1 < len(segs) and segs[i + 1][0] < end:
            a = segs[i + 1][1]
        else:
            return None
        last = end - 1
        j = self._at(last)
        v, h, n = segs[j]
        b = h + last - v if last <= v + n else h + n  # (the run's end lies in the range: a is set)
        if b + 1 < a:
            return None
        return Span(a, b + 1)

    def cover(self, start: int, end: int) -> Optional[Span]:
        """Host span from where text byte ``start`` is to just after text byte ``end - 1`` (a
        launch's extent across lines); None when either end is unmapped."""
        s = self.host(start)
        if end == start:
            e = s
        else:
            e1 = self.host(end - 1)
            e = e1 + 1 if e1 is not None else None
        if s is None or e is None or e < s:
            return None
        return Span(s, e)

    def deletion(self, span: Span) -> Optional[Span]:
        """The host span a deletion of text ``span`` removes: as :meth:`cover`, except that
        whole lines of a dedented text take their cut indentation with them."""
        sp = self.cover(span.start, span.end)
        if sp is None or self._lines is None:
            return sp
        starts, host_lines = self._lines
        k = bisect_right(starts, span.start) - 1
        if k < 0 or starts[k] != span.start:
            return sp
        if span.end == len(self.text) or starts[bisect_right(starts, span.end) - 1] == span.end:
            return Span(host_lines[k], sp.end)
        return sp

    @property
    def complete(self) -> bool:
        """True when the whole text is one verbatim run."""
        return (len(self.segments) == 1 and self.segments[0][2] == len(self.text)) or (
            not self.text and not self.segments
        )

    # ---- derived embeddings ---------------------------------------------------------------

    def compose(self, outer: "Embedding") -> "Embedding":
        """This text's map into ``outer``'s host, where this embedding's host is ``outer``'s
        text (a heredoc of a script of a file): runs are cut where either map breaks."""
        segs: list[Segment] = []
        osegs = outer.segments
        for v, m, n in self.segments:
            j = max(outer._at(m), 0)
            while j < len(osegs):
                ov, oh, on = osegs[j]
                if ov >= m + n:
                    break
                lo, hi = max(m, ov), min(m + n, ov + on)
                if lo < hi:
                    segs.append((v + lo - m, oh + lo - ov, hi - lo))
                j += 1
        return Embedding(self.text, segs)

    def window(self, start: int, end: int) -> "Embedding":
        """The embedding of ``text[start:end]``."""
        sub = Embedding(self.text[start:end], [(0, start, end - start)])
        return sub.compose(self)

    def prefixed(self, prefix: bytes) -> "Embedding":
        """The embedding of ``prefix + text``, the prefix unmapped (a reader's scaffolding,
        such as ``if True:`` before indented Python)."""
        n = len(prefix)
        return Embedding(prefix + self.text, [(v + n, h, ln) for v, h, ln in self.segments])


# ---- re-basing a whole extraction


def rebase(ex: Extraction, emb: Embedding, out: Extraction,
           deletion: Optional[Callable[[Span], Optional[Span]]] = None) -> None:
    """Add ``ex``'s launches, variables, version hints and notes (in the embedded text's
    offsets) to ``out``, every span mapped into the host by ``emb`` (:meth:`Embedding.cover`);
    ``deletion`` maps the span of a deletion (default :meth:`Embedding.deletion`)."""
    if deletion is None:
        deletion = emb.deletion

    def f(sp: Optional[Span]) -> Optional[Span]:
        return None if sp is None else emb.cover(sp.start, sp.end)

    def env(e: EnvAssign) -> EnvAssign:
        return replace(e, name_span=f(e.name_span), value_span=f(e.value_span),
                       value_text_span=f(e.value_text_span),
                       delete_span=deletion(e.delete_span) if e.delete_span else None)

    for la in ex.launches:
        tok_map: dict[int, Token] = {}

        def tok(t: Token) -> Token:
            c = replace(t, span=f(t.span), text_span=f(t.text_span))
            if t.origin:
                c.origin = tuple((name, f(sp)) for name, sp in t.origin)
            if c.text_span is not None and c.span is None:
                c.text_span = None
            tok_map[id(c)] = t
            return c

        def ka(k: KeyedArg) -> KeyedArg:
            return replace(k, key_span=f(k.key_span), value_span=f(k.value_span),
                           value_text_span=f(k.value_text_span),
                           delete_span=deletion(k.delete_span) if k.delete_span else None)

        def vh(v: VersionHint) -> VersionHint:
            return replace(v, span=f(v.span))

        new = replace(
            la,
            span=f(la.span) or Span(0, 0),
            tokens=[tok(t) for t in la.tokens],
            dropped=[tok(t) for t in la.dropped],
            keyed=[ka(k) for k in la.keyed],
            env=[env(e) for e in la.env],
            version_hints=[vh(v) for v in la.version_hints],
            context=dict(la.context),
            # (a fix deletes these bytes: unmapped, the embedded text's offsets would cut the host's)
            image_cmd_delete=deletion(la.image_cmd_delete) if la.image_cmd_delete else None,
            script_span=f(la.script_span),
        )
        if la.delete_tokens is not None:
            new.delete_tokens = _rebased_deleter(la.delete_tokens, tok_map, f, deletion)
        # (its edits are in the embedded text's offsets too: unmapped, they would rewrite the host's
        # bytes at those offsets, prose of a Markdown file)
        new.replace_entry = _rebased_replacer(la.replace_entry, f, deletion) if la.replace_entry else None
        out.launches.append(new)
    for e in ex.env:
        out.env.append(env(e))
    for v in ex.version_hints:
        out.version_hints.append(replace(v, span=f(v.span)))
    for n in ex.notes:
        out.notes.append(replace(n, span=f(n.span)))


def _shifted(edits: Optional[list[Edit]], f, deletion) -> Optional[list[Edit]]:
    """Edits of the embedded text, in the host's offsets; None when one does not map."""
    if edits is None:
        return None
    shifted = []
    for e in edits:
        sp = deletion(e.span) if not e.content else f(e.span)
        if sp is None:
            return None
        shifted.append(Edit(sp, e.content))
    return shifted


def _rebased_replacer(orig, f, deletion):
    """The launch's ``replace_entry`` in the host's offsets: the original's edits, mapped."""

    def replace_entry(words: list[str]) -> Optional[list[Edit]]:
        return _shifted(orig(words), f, deletion)

    return replace_entry


def _rebased_deleter(orig, tok_map: dict[int, Token], f, deletion):
    """The launch's ``delete_tokens`` for the re-based tokens: the original's edits, mapped."""

    def delete_tokens(tokens: list[Token]) -> Optional[list[Edit]]:
        originals = []
        for t in tokens:
            o = tok_map.get(id(t))
            if o is None:
                return None
            originals.append(o)
        return _shifted(orig(originals), f, deletion)

    return delete_tokens
