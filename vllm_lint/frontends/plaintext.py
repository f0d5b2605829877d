"""The reader of last resort: command lines that start vLLM in a text file no other format claims
(a Slurm or PBS job file without a ``#!`` line, a Terraform ``.tftpl`` or Jinja ``.j2`` template,
a Procfile, a supervisord ``.conf``, a cloud-init ``user-data``, a ``.txt`` of notes ...).

Only the lines that show a launch are read, each as one shell command line (``\\``-continued
lines are one): the logical line that holds a marker (``vllm serve``, ``-m vllm.entrypoints``,
``vllm/vllm-openai``, a ``docker run`` option ``-e SM_VLLM_...`` of a container whose entrypoint
turns such variables into vLLM's options: ``container.ENV_OPTIONS``), read from the first place on it where the shell reader finds a launch: the
line's start (launchers such as ``srun`` or ``nohup`` in front), after a ``key:`` / ``key=`` lead
(``web: vllm serve ...``, ``command=vllm serve ...``, optionally quoted), or the command word
itself when a quote, a backquote, ``=``, ``:`` or ``(`` opens it (``env``-style assignments
kept). A command opened by a
quote or a backquote ends at the matching one. ``pip install vllm==X`` lines are read too, for
the release they name.

Offsets are 1:1 into the file, so findings and fixes land on the file's bytes; a template's
placeholders (``{{ model }}``, ``{% if %}...``, ``<model>``, a format string's ``{port}``) are
opaque words, never judged nor rewritten (``doc_commands.fill``), and ``${var}`` is a shell
expansion (opaque as in shell). A line of only a template's statements inside a ``\\``-continued
command is dropped as the template renders (the command goes on after it), and of an ``{% if %}``
the branch its Ansible role's variables decide is read, else the first (its ``{% else %}`` is an
alternative: ``frontends/jinja_vars``). A Jinja template of a
script (``start.sh.j2``) is read here even with a ``#!`` line (``frontends/base.py``). A
candidate that does not parse as shell without an error is no command line (prose, code of
another language).
The registry's ``last_resort`` entry: the ``--verbose`` account says the file was read as plain
text.
"""

from __future__ import annotations

from typing import Optional

from vllm_lint.frontends.base import ENV_RUN_BYTES, ENV_RUN_MARKER
from vllm_lint.frontends.embedding import Embedding
from vllm_lint.launch import Extraction, ParseError
from vllm_lint.record import lazy_re

FORMAT = "plaintext"

__all__ = ["FORMAT", "MARKER", "might_contain_launch", "extract", "command_lines", "parse_check"]

#: what makes a line a candidate command line (``frontends/base.py``'s ``COMMAND_MARKERS`` claims
#: the file with the same words)
MARKER = lazy_re(rb"\bvllm[ \t]+serve\b|-m[ \t]+vllm\.entrypoints\b|\bvllm/vllm-openai\b"
                 rb"|\bpip3?[ \t]+install\b[^\n]*\bvllm\b")
#: a ``docker run`` option setting a variable that the container's entrypoint turns into a vLLM
#: option (``-e SM_VLLM_MAX_MODEL_LEN=4096``: ``frontends/base.py``'s ``ENV_RUN_MARKER``), looked
#: for only in a file holding one of the variables' prefixes: its logical line is a candidate too
ENV_MARKER = lazy_re(ENV_RUN_MARKER)
# a lead before the command on the line: a list dash, a ``key:`` or ``key=`` (Procfile,
# supervisord, systemd-like), a ``$`` prompt; then an optional opening quote
_LEAD = lazy_re(rb"[ \t]*(?:-[ \t]+)?(?:[A-Za-z_][\w.@/-]*[ \t]*(?::|\+?=)[ \t]*)?(?:\$[ \t]+)?")
# where the marker's own command word starts: back over the word it is in, then over
# ``NAME=value`` assignments right before it (``VLLM_X=1 vllm serve``)
_ASSIGNMENTS_BEFORE = lazy_re(rb"(?:[A-Za-z_][A-Za-z0-9_]*=[^\s\"'`]*[ \t]+)*$")
_QUOTES = b"\"'`"


def might_contain_launch(data: bytes) -> bool:
    return MARKER.search(data) is not None or (
        any(b in data for b in ENV_RUN_BYTES) and ENV_MARKER.search(data) is not None)


def _markers(data: bytes) -> list:
    """The markers of :data:`MARKER` (and of :data:`ENV_MARKER`, in a file holding a variable's
    prefix), in order."""
    found = list(MARKER.finditer(data))
    if any(b in data for b in ENV_RUN_BYTES):
        found = sorted(found + list(ENV_MARKER.finditer(data)), key=lambda m: m.start())
    return found


def _logical_line(data: bytes, pos: int) -> tuple[int, int]:
    """(start, end) of the ``\\``-continued line holding offset ``pos`` (end before its line break).

    A line of only a template's statements (Jinja's ``{% if x %}``, ``{% endif %}``) between
    continued lines is part of the command: a template engine that renders a launcher script
    (Ansible's ``template``, Salt's) drops such a line whole, so the ``\\`` before it continues to
    the line after it."""
    start = data.rfind(b"\n", 0, pos) + 1
    while start > 0:
        prev_end = start - 1  # the \n ending the line before
        prev = data[:prev_end].rstrip(b"\r")
        if not prev.endswith(b"\\") or prev.endswith(b"\\\\"):
            tag_start = data.rfind(b"\n", 0, prev_end) + 1
            if tag_start == 0 or not _only_tags(data[tag_start:prev_end]):
                break
            before = data[:tag_start - 1].rstrip(b"\r")
            if not before.endswith(b"\\") or before.endswith(b"\\\\"):
                break  # (a statement line with no continued line before it: not in the command)
        start = data.rfind(b"\n", 0, prev_end) + 1
    end = pos
    while True:
        nl = data.find(b"\n", end)
        if nl < 0:
            return start, len(data)
        line_end = nl - 1 if nl > 0 and data[nl - 1:nl] == b"\r" else nl
        body = data[start:line_end] if line_end >= start else b""
        if body.endswith(b"\\") and not body.endswith(b"\\\\"):
            end = nl + 1
            while True:  # statement lines after a continued line: the command goes on after them
                nl2 = data.find(b"\n", end)
                line = data[end:len(data) if nl2 < 0 else nl2]
                if nl2 < 0 or not _only_tags(line):
                    break
                end = nl2 + 1
            continue
        return start, line_end


def _only_tags(line: bytes) -> bool:
    """Whether ``line`` holds only a template's statements and comments (``{% ... %}``, ``{# #}``)."""
    if b"{%" not in line and b"{#" not in line:
        return False
    return not _TEMPLATE_TAG.sub(b"", line).strip()


def _word_start(data: bytes, start: int, pos: int) -> int:
    """The start of the command word holding ``pos`` (the ``vllm`` of ``/opt/bin/vllm serve``,
    the ``python3`` of ``python3 -m vllm.entrypoints...``), with the assignments right before it."""
    i = pos
    if data[pos:pos + 2] == b"-m":  # back over the interpreter and its options
        k = pos
        while k > start:
            j = k - 1
            while j >= start and data[j:j + 1] in b" \t":
                j -= 1
            w_end = j + 1
            while j >= start and data[j:j + 1] not in b" \t\"'`=:(":
                j -= 1
            word = data[j + 1:w_end]
            k = j + 1
            if not word.startswith(b"-"):
                break
        i = k
    while i > start and data[i - 1:i] not in b" \t\"'`=:(\n":
        i -= 1
    m = _ASSIGNMENTS_BEFORE.search(data, start, i)
    return m.start() if m is not None and m.start() < i else i


_LAUNCHER_NAMES: Optional[frozenset] = None


def _launchers_before(data: bytes, start: int, word: int) -> int:
    """Back from the command word at ``word`` over the launchers right before it (``nohup``,
    ``exec``, ``env`` ...: ``commands.LAUNCHERS``, without their options)."""
    global _LAUNCHER_NAMES
    if _LAUNCHER_NAMES is None:
        from vllm_lint.frontends.commands import LAUNCHERS

        _LAUNCHER_NAMES = frozenset(n.encode() for row in LAUNCHERS for n in row.names)
    names = _LAUNCHER_NAMES
    while True:
        head = data[start:word].rstrip(b" \t")
        k = max(head.rfind(b" "), head.rfind(b"\t"), head.rfind(b'"'), head.rfind(b"'"), head.rfind(b"`"))
        prev = head[k + 1:]
        if not prev or prev.rsplit(b"/", 1)[-1] not in names:
            return word
        word = start + k + 1


def _closing(data: bytes, open_at: int, after: int, end: int) -> int:
    """Where a command opened by the quote at ``open_at`` ends: before the first unescaped same
    quote at or after ``after`` on the line, else at the line's end."""
    q = data[open_at:open_at + 1]
    k = data.find(q, after, end)
    while k >= 0 and data[k - 1:k] == b"\\":
        k = data.find(q, k + 1, end)
    return end if k < 0 else k


def command_lines(data: bytes) -> list[tuple[int, int, tuple[int, ...]]]:
    """Each logical line that holds a marker: (start, end, candidate command starts in order)."""
    out = []
    last_end = -1
    for m in _markers(data):
        if m.start() <= last_end:
            continue  # in the logical line read already (markers come in order)
        start, end = _logical_line(data, m.start())
        last_end = end
        lead = _LEAD.match(data, start, end)
        cands = [start + len(data[start:end]) - len(data[start:end].lstrip(b" \t"))]
        if lead is not None:
            at = lead.end()
            cands.append(at + 1 if data[at:at + 1] in (b'"', b"'") else at)
        word = _launchers_before(data, start, _word_start(data, start, m.start()))
        before = data[start:word].rstrip(b" \t")
        if not before or before[-1:] in b"\"'`=:($\\":  # the command opens what is there
            cands.append(word)
        out.append((start, end, tuple(dict.fromkeys(c for c in cands if c < end))))
    return out


def extract(data: bytes, path: str) -> Extraction:
    from vllm_lint.frontends import doc_commands, shell

    if b"\x00" in data:
        raise ParseError("binary data (NUL byte)", offset=data.index(b"\x00"))
    out = Extraction()
    variables: Optional[dict] = None  # an Ansible role's variables, for its template's `{% if %}`s
    if (b"{{" in data or b"{%" in data) and "/templates/" in path.replace("\\", "/"):
        from vllm_lint.frontends.jinja_vars import role_vars

        variables = role_vars(path)
    for start, end, cands in command_lines(data):
        for s in cands:
            e = end
            if s > start and data[s - 1:s] in (b'"', b"'", b"`"):
                e = _closing(data, s - 1, s, end)
            text, tags = _blank_template_tags(data[s:e], variables)
            filled, regions = doc_commands.fill(text)
            if regions:  # a placeholder's braces would open a shell group: one plain word
                cleared = bytearray(filled)
                for a, b, _splat in regions:
                    cleared[a:b] = bytes(c if c not in b"{}" else 95 for c in cleared[a:b])
                filled = bytes(cleared)
            filled, fields = _fill_fields(filled)
            regions += fields
            if shell.parse_errors(filled):
                continue  # prose, or code of another language: no command line from here
            emb = _embedding(filled, s, tags)
            try:
                ex = shell.extract_script(filled, path, emb)
            except ParseError:
                continue
            if regions:
                doc_commands.mark(ex, regions, emb)
                if variables:  # (an Ansible role's template: `{{ VAR }}` as its defaults set it)
                    from vllm_lint.frontends.jinja_vars import render_words

                    render_words(ex.launches, data, variables)
            if tags:  # a conditional may add or drop words: no rule may claim an option is absent
                for la in ex.launches:
                    la.opaque = True
            if ex.launches or ex.version_hints:
                out.launches.extend(ex.launches)
                out.env.extend(ex.env)
                out.version_hints.extend(ex.version_hints)
                out.notes.extend(ex.notes)
                break
    return out


# a template's own statements in a command line (Jinja ``{% if x %}`` and ``{# #}``, Terraform
# ``%{ if x }``): blanked, so the words around them are read as written, and unmapped, so no fix
# edits across them
_TEMPLATE_TAG = lazy_re(rb"\{%-?[^\n]*?-?%\}|\{#[^\n]*?#\}|%\{[^\n}]*\}")


# a format string's field (``{port}``, ``{args.model}``, ``{0}``, ``{}``: Python's str.format, a
# templating tool's): one opaque word; standing alone as a word, not after an option, any number
# of words (a splat: ``{eager_flag}`` may be ``--enforce-eager`` or nothing)
_FIELD = lazy_re(rb"(?<![$\w{])\{[A-Za-z_0-9]*(?:[.\[][\w\]\[.]*)?(?::[^{}\s]*)?\}(?!\})")


def _fill_fields(text: bytes) -> tuple[bytes, list[tuple[int, int, bool]]]:
    if b"{" not in text:
        return text, []
    out = bytearray(text)
    regions = []
    for m in _FIELD.finditer(text):
        a, b = m.span()
        if text[a - 1:a] == b"$":
            continue  # ${VAR}: the shell's
        out[a:b] = b"_" * (b - a)
        alone = (a == 0 or text[a - 1:a] in b" \t\n") and (b == len(text) or text[b:b + 1] in b" \t\r\n\\")
        prev = text[:a].rstrip(b" \t\\\r\n").rsplit(None, 1)[-1:] or [b""]
        regions.append((a, b, alone and not prev[0].startswith(b"-")))  # (after an option: its value)
    return bytes(out), regions


def _blank_template_tags(text: bytes, variables: Optional[dict] = None) -> tuple[bytes, list[tuple[int, int]]]:
    if b"{%" not in text and b"{#" not in text and b"%{" not in text:
        return text, []
    from vllm_lint.frontends.jinja_vars import blank_statements

    out, holes = blank_statements(text, [m.span() for m in _TEMPLATE_TAG.finditer(text)], variables)
    holes = _merged(holes)
    # a line of only statements inside the command (:func:`_logical_line`), or of a dropped
    # branch, is no line of the rendered command: blanked, it ends with a `\` so the command goes
    # on past it
    for a, b in holes:
        ls = text.rfind(b"\n", 0, a) + 1
        while ls <= b:
            le = text.find(b"\n", ls)
            if le < 0:
                break
            last = le - 1 if text[le - 1:le] == b"\r" else le
            if last > ls and text[ls:last].strip() and not bytes(out[ls:last]).strip():
                out[last - 1] = 0x5C  # `\`
            ls = le + 1
    return bytes(out), holes


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _embedding(text: bytes, base: int, holes: list[tuple[int, int]]) -> Embedding:
    """``text`` at ``base`` in the file, verbatim but for the ``holes``."""
    segs, at = [], 0
    for a, b in holes:
        segs.append((at, base + at, a - at))
        at = b
    segs.append((at, base + at, len(text) - at))
    return Embedding(text, segs)


def parse_check(before: bytes, after: bytes) -> Optional[str]:
    """The fixed file's command lines must parse as shell no worse than before."""
    from vllm_lint.frontends import shell

    def errors(data: bytes) -> int:
        return sum(shell.parse_errors(data[s:e]) for s, e, _c in command_lines(data))

    if errors(after) > errors(before):
        return "a command line no longer parses as shell"
    return None
