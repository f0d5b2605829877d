"""Commands shown in documentation, and their placeholders (``<model>``, ``<embed|classify>``,
``[options]``, ``...``, ``{{var}}``, ``{your model directory}``, one capital letter as an option's
value: ``--tensor-parallel-size X``).

Where documentation shows a command: :data:`COMMAND` finds one (a line that starts with a vLLM
command, after an optional ``$`` prompt, ``VAR=value`` prefixes or a short ``run:`` lead-in, or
an inline backquoted command with an argument); :func:`command_text` keeps those and blanks the
rest, keeping every offset (Python docstrings); :func:`inline_commands` finds the inline ones in
Markdown prose.

A command line shown in documentation (a Markdown block, a Python docstring) stands for many:
``vllm serve <model> --swap-space 4``. Its placeholders are opaque words, never judged nor
rewritten, and the options around them are checked. Not a format: a helper of the front-ends
that read documentation (:mod:`~vllm_lint.frontends.markdown`, :mod:`~vllm_lint.frontends.python`).

For shell text, :func:`fill` first makes each placeholder one shell word of the same length
(``<model>`` -> ``_model_``: a ``<`` would be a redirection), then :func:`mark` makes the words
they touch opaque; ``[options]`` and ``...`` may stand for any number of words (splats, and the
launch ``opaque``). For values parsed by another format (YAML, Python, Dockerfile),
:func:`mark_values` makes a value that is a placeholder opaque.
"""

from __future__ import annotations

from typing import Optional

from vllm_lint.frontends.embedding import Embedding
from vllm_lint.launch import Extraction, Launch, Span
from vllm_lint.record import lazy_re

__all__ = ["COMMAND", "command_text", "inline_commands", "fill", "mark", "mark_values"]

# a command line as documentation shows it: a vLLM command first, after VAR=value prefixes
_START = (r"(?:[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+)*"
          r"(?:vllm[ \t]+serve\b|python3?[ \t]+-m[ \t]+(?:vllm\.entrypoints|dynamo\.vllm)\b)")
_LEAD = r"[ \t]*(?:[A-Za-z][\w ,()-]{0,40}:[ \t]+)?(?:\$[ \t]+)?"  # "run: ", "$ "
_INLINE_PATTERN = r"(?<!`)(``?)(" + _START + r"[ \t]+[^`\n]*?)\1(?!`)"
COMMAND = lazy_re(r"(?m)^" + _LEAD + _START + r"|`" + _START)
_LINE = lazy_re(_LEAD + r"(?=" + _START + ")")
_INLINE = lazy_re(_INLINE_PATTERN)
_INLINE_BYTES = lazy_re(_INLINE_PATTERN.encode())


def command_text(value: str) -> Optional[str]:
    """``value`` (a docstring) with everything but its command lines blanked to spaces (line
    breaks kept; the closing backquote of an inline command becomes ``;``, which ends it), so
    that offsets into it are offsets into ``value``; None when it shows none."""
    out = [ch if ch == "\n" else " " for ch in value]
    found = False
    pos = 0
    cont = False
    for line in value.split("\n"):
        m = None if cont else _LINE.match(line)
        if cont or m:
            k = m.end() if m else 0
            out[pos + k : pos + len(line)] = line[k:]
            found = True
            cont = line.rstrip().endswith("\\")
        else:
            for im in _INLINE.finditer(line):
                if "--help" in im.group(2):
                    continue  # a request for help is no launch
                s, e = im.span(2)
                out[pos + s : pos + e] = line[s:e]
                out[pos + e] = ";"
                found = True
        pos += len(line) + 1
    return "".join(out) if found else None


def inline_commands(text: bytes) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each inline backquoted command with an argument in ``text``."""
    return [im.span(2) for im in _INLINE_BYTES.finditer(text) if b"--help" not in im.group(2)]

# ``<embed|classify>`` offers alternatives; ``{your model directory}`` is a single-brace
# placeholder (never ``${VAR}`` nor a brace expansion ``{a,b}``, which has no space-separated words).
_PLACEHOLDER = lazy_re(
    rb"(?P<angle>(?<![<\w$])<[A-Za-z_][\w.:/@=+|-]*(?:[ ][\w.:/@=+|-]+){0,3}>(?!>))"
    rb"|(?P<bracket>(?<![^\s\"'=])\[[A-Za-z_-][^\]\n]{0,80}\](?![^\s\"']))"
    rb"|(?P<dots>(?<![^\s\"'=])(?:\.\.\.|\xe2\x80\xa6)(?![^\s\"']))"
    rb"|(?P<braces>\{\{[^{}\n]{1,80}\}\})"
    rb"|(?P<brace>(?<![^\s\"'=])\{[A-Za-z_][\w.:/@=+-]*(?:[ ][\w.:/@=+-]+){1,4}\}(?![^\s\"']))"
    # one capital letter as an option's value: `--tensor-parallel-size X`, `-tp N` (a word of its own
    # after an option or `=`; a single letter is no value of any vLLM option but a name's)
    rb"|(?P<letter>(?<=[ \t=])[A-Z](?![^\s\"';)]))"
)
# a capital letter after an option, for :func:`fill`'s cheap test
_LETTER = lazy_re(rb"[ \t=][A-Z](?:[\s\"';)]|$)")
_VALUE = lazy_re(r"<[A-Za-z_][^<>]*>|\[[A-Za-z_-][^\]]*\]|\.\.\.|\u2026|\{\{[^{}]*\}\}")

Region = tuple[int, int, bool]  # (start, end, splat)


def fill(script: bytes) -> tuple[bytes, list[Region]]:
    """``script`` with each placeholder filled to one shell word of the same length, and the
    ``(start, end, splat)`` of each."""
    if not (b"<" in script or b"[" in script or b"..." in script or b"{" in script or b"\xe2\x80\xa6" in script
            or _LETTER.search(script)):
        return script, []
    regions = []
    filled = bytearray(script)
    for m in _PLACEHOLDER.finditer(script):
        s, e = m.span()
        if m.lastgroup == "letter" and not _after_option(script, s):
            continue
        if m.lastgroup == "angle":
            filled[s:e] = b"_" + script[s + 1 : e - 1].replace(b" ", b"_") + b"_"
        elif m.lastgroup in ("bracket", "braces", "brace", "letter"):
            filled[s:e] = script[s:e].replace(b" ", b"_").replace(b"\t", b"_")
        regions.append((s, e, m.lastgroup in ("bracket", "dots")))
    return bytes(filled), regions


def _after_option(script: bytes, at: int) -> bool:
    """Whether the word before offset ``at`` (``--name=`` or ``--name `` / ``-x ``) is an option."""
    line = script[script.rfind(b"\n", 0, at) + 1:at]
    if line.endswith(b"="):
        word = line[:-1].rsplit(None, 1)[-1] if line[:-1].strip() else b""
    else:
        words = line.split()
        word = words[-1] if words else b""
    return len(word) > 1 and word.startswith(b"-") and word != b"--" and (word[1:2].isalnum() or word[:2] == b"--")


def mark(ex: Extraction, regions: list[Region], emb: Optional[Embedding] = None) -> None:
    """Words of ``ex``'s launches (in file offsets; ``emb`` maps the regions' script offsets
    there) that a placeholder touches become opaque, or splats for ``[options]`` and ``...``."""
    spans = []
    for s, e, splat in regions:
        sp = Span(s, e) if emb is None else emb.cover(s, e)
        if sp is not None:
            spans.append((sp.start, sp.end, splat))
    if not spans:
        return

    def hit(sp: Optional[Span]) -> Optional[bool]:
        if sp is None:
            return None
        for s, e, splat in spans:
            if s < sp.end and sp.start < e:
                return splat
        return None

    for la in ex.launches:
        for t in la.tokens:
            h = hit(t.span)
            if h is None and t.origin:  # a value read through a variable a placeholder sets
                h = next((x for _n, sp in t.origin for x in (hit(sp),) if x is not None), None)
                if h is not None:
                    t.origin = None
            if h is not None:
                t.opaque, t.text_span = True, None
                if h:
                    t.splat = la.opaque = True
        for ea in la.env:
            if hit(ea.value_span) is not None:
                ea.value_opaque, ea.value_text_span = True, None


def mark_values(launches: list[Launch]) -> None:
    """Values of ``launches`` that are a placeholder (``"<model>"``, ``"..."``) are opaque."""
    for la in launches:
        for t in la.tokens:
            if not t.opaque and _VALUE.fullmatch(t.text):
                t.opaque, t.text_span = True, None
                if t.text in ("...", "\u2026") or t.text.startswith("["):
                    t.splat = la.opaque = True
        for k in la.keyed:
            if isinstance(k.value, str) and _VALUE.fullmatch(k.value):
                k.value, k.value_opaque, k.value_text_span = None, True, None
        for ea in la.env:
            if isinstance(ea.value, str) and _VALUE.fullmatch(ea.value):
                ea.value_opaque, ea.value_text_span = True, None
