"""The image a Dockerfile's final stage starts ``FROM`` (stage names followed, ``${ARG}`` from
the build's arguments or the Dockerfile's ``ARG`` defaults), and whether it keeps that image's
entrypoint: what a compose service built from a local Dockerfile (``yaml/compose_build``) and a
script's ``docker run`` of an image it builds (``shell``) run; and what a container of the image
runs (:func:`final_process`: its own ``ENTRYPOINT`` and ``CMD``, and the scripts it writes or
copies in), for a ``docker run`` of an image whose Dockerfile starts vLLM itself. Pure text work,
no front-end imported (both of those import it)."""

# (no ``from __future__ import annotations``: typing.NamedTuple turns string annotations into
# forward references, compiled with ``compile()``, whose first call in a process builds the
# ast module's ~120 node classes: ~10 M instructions of a one-file lint; benchmarks/README.md)

import posixpath
import re
from typing import NamedTuple, Optional

from ..record import lazy_json as json  # (json.loads without the json package: record.json_loads)
from vllm_lint.record import lazy_re

_INSTRUCTION = lazy_re(r"(?im)^[ \t]*(FROM|ARG|ENTRYPOINT)[ \t]+([^\n]*)$")
_VAR = lazy_re(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def final_base(source: str, build_args: dict[str, str]) -> Optional[tuple[str, bool]]:
    """(the final stage's base image, whether no ENTRYPOINT is set), stage names followed."""
    source = re.sub(r"\\\r?\n", " ", source)  # line continuations
    defaults: dict[str, str] = {}
    stages: dict[str, tuple[str, bool]] = {}  # stage name -> (its base image, no ENTRYPOINT set)
    image: Optional[str] = None
    entrypoint_kept = True
    stage: Optional[str] = None
    for m in _INSTRUCTION.finditer(source):
        kind, rest = m.group(1).upper(), m.group(2).strip()
        if kind == "ARG":
            name, eq, value = rest.partition("=")
            if eq and image is None:  # (an ARG before the first FROM: usable in FROM lines)
                defaults[name.strip()] = value.strip().strip("'\"")
        elif kind == "ENTRYPOINT":
            entrypoint_kept = False
            if stage is not None and image is not None:
                stages[stage] = (image, False)
        else:
            words = [w for w in rest.split() if not w.startswith("--platform")]
            if not words:
                return None
            ref = substitute(words[0], {**defaults, **build_args})
            # a stage starts from its base's entrypoint (an earlier stage's, when it names one)
            image, entrypoint_kept = stages.get(ref.lower(), (ref, True)) if ref is not None else (None, True)
            stage = words[2].lower() if len(words) >= 3 and words[1].lower() == "as" else None
            if stage is not None and image is not None:
                stages[stage] = (image, entrypoint_kept)
    return None if image is None else (image, entrypoint_kept)


_RUN = lazy_re(r"(?im)^[ \t]*(ARG|RUN)[ \t]+([^\n]*)$")
# `pip install vllm==0.11.2` (also uv's, `"vllm[audio]==0.9.1"`, `vllm===`), its version a word or an ${ARG}
_PIN = lazy_re(r"""(?i)(?:^|[\s"'\[,=])vllm(?:\[[^\]]*\])?[ \t]*===?[ \t]*v?((?:[0-9][0-9a-zA-Z.+]*)|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)""")


def pinned_vllm(source: str, build_args: dict[str, str]) -> Optional[str]:
    """The vLLM release a Dockerfile's ``RUN`` lines pin (``pip install vllm==0.11.2``, the version
    an ``${ARG}`` with its default or the build's argument), when they pin one; None for none, or
    for two different ones (build branches: which runs is not said here)."""
    if "vllm" not in source.lower():
        return None
    source = re.sub(r"\\\r?\n", " ", source)  # line continuations
    defaults: dict[str, str] = {}
    found: set[str] = set()
    for m in _RUN.finditer(source):
        kind, rest = m.group(1).upper(), m.group(2)
        if kind == "ARG":
            name, eq, value = rest.strip().partition("=")
            if eq:
                defaults.setdefault(name.strip(), value.strip().strip("'\""))
            continue
        for p in _PIN.finditer(rest):
            v = p.group(1)
            if v.startswith("$"):
                v = substitute(v, {**defaults, **build_args}) or ""
            if v and v[0].isdigit():
                found.add(v)
    return found.pop() if len(found) == 1 else None


def substitute(word: str, values: dict[str, str]) -> Optional[str]:
    unknown = False

    def one(m: "re.Match[str]") -> str:
        nonlocal unknown
        name = m.group(1) or m.group(3)
        if values.get(name):
            return values[name]
        if m.group(2) is not None:
            return m.group(2)
        unknown = True
        return ""

    out = _VAR.sub(one, word)
    return None if unknown else out


_PROCESS_LINE = lazy_re(r"(?im)^[ \t]*(FROM|ARG|ENTRYPOINT|CMD|RUN|COPY|ADD)[ \t]+([^\n]*)$")
_HEREDOC_START = lazy_re(r"<<(-?)[ \t]*([\"']?)([A-Za-z_][A-Za-z0-9_]*)\2")
_WRITES_TO = lazy_re(r"""(?:>>?|\btee(?:[ \t]+-a)?)[ \t]*["']?([^\s"'|;&<>]+)""")


class ImageProcess(NamedTuple):
    """What a container of the image a Dockerfile builds runs: its final stage's base image (stage
    names followed, ``${ARG}`` filled), its own ``ENTRYPOINT`` and ``CMD`` (exec form: the words;
    shell form: the command line as one string in ``entrypoint_shell``; None: the base image's,
    inherited), and the scripts it puts in the image: those a ``RUN`` heredoc writes (path in
    the image -> text, as the writing shell leaves it) and those ``COPY`` / ``ADD`` copy from the
    build context (path in the image -> path in the context)."""

    base: Optional[str]
    entrypoint: Optional[list[str]]
    entrypoint_shell: Optional[str]
    cmd: Optional[list[str]]
    scripts: dict[str, str]
    copies: dict[str, str]


def final_process(source: str, build_args: Optional[dict[str, str]] = None) -> Optional[ImageProcess]:
    """:class:`ImageProcess` of the Dockerfile ``source``'s final stage, or None when it has no
    ``FROM``. An earlier stage named in ``FROM`` passes on its entrypoint and command; ``ENTRYPOINT``
    resets an inherited ``CMD`` (Docker's rule)."""
    build_args = build_args or {}
    lines = source.split("\n")
    joined: list[str] = []  # logical lines (continuations joined), heredoc bodies kept as lines of their own
    i = 0
    while i < len(lines):
        line = lines[i]
        while line.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line.rstrip()[:-1] + " " + lines[i]
        joined.append(line)
        i += 1
    defaults: dict[str, str] = {}
    stages: dict[str, tuple] = {}  # name -> (base, entrypoint, entrypoint_shell, cmd)
    base = entrypoint = entrypoint_shell = cmd = None
    started = False
    stage: Optional[str] = None
    scripts: dict[str, str] = {}
    copies: dict[str, str] = {}
    k = 0
    while k < len(joined):
        line = joined[k]
        k += 1
        m = _PROCESS_LINE.match(line)
        if m is None:
            continue
        kind, rest = m.group(1).upper(), m.group(2).strip()
        if kind == "ARG":
            name, eq, value = rest.partition("=")
            if eq and not started:
                defaults[name.strip()] = value.strip().strip("'\"")
            continue
        if kind == "FROM":
            if stage is not None:
                stages[stage] = (base, entrypoint, entrypoint_shell, cmd)
            words = [w for w in rest.split() if not w.startswith("--platform")]
            if not words:
                return None
            ref = substitute(words[0], {**defaults, **build_args})
            started = True
            inherited = stages.get(ref.lower()) if ref is not None else None
            if inherited is not None:
                base, entrypoint, entrypoint_shell, cmd = inherited
            else:
                base, entrypoint, entrypoint_shell, cmd = ref, None, None, None
            stage = words[2].lower() if len(words) >= 3 and words[1].lower() == "as" else None
            scripts, copies = {}, {}
            continue
        if kind in ("ENTRYPOINT", "CMD"):
            words = _exec_form(rest)
            if kind == "ENTRYPOINT":
                entrypoint, entrypoint_shell, cmd = (words, None, None) if words is not None else ([], rest, None)
            else:
                cmd = words if words is not None else ["/bin/sh", "-c", rest]
            continue
        if kind == "RUN":
            h = _HEREDOC_START.search(rest)
            if h is None:
                continue
            body: list[str] = []
            while k < len(joined) and joined[k].strip() != h.group(3):
                body.append(joined[k])
                k += 1
            k += 1
            target = _WRITES_TO.search(rest)
            if target is not None:
                text = "\n".join(body) + "\n"
                if not h.group(2):  # an unquoted delimiter: the writing shell removes `\` before `$`, `` ` ``, `\`
                    text = re.sub(r"\\([$`\\])", r"\1", text)
                scripts[posixpath.normpath(target.group(1))] = text
            continue
        words = [w for w in _exec_form(rest) or rest.split() if not w.startswith("--")]  # COPY / ADD
        if len(words) == 2 and "--from" not in rest and "$" not in "".join(words) and "://" not in words[0]:
            src, dest = words
            if dest.endswith("/"):
                dest += posixpath.basename(src)
            copies[posixpath.normpath(dest)] = src
    if not started:
        return None
    return ImageProcess(base, entrypoint, entrypoint_shell, cmd, scripts, copies)


def _exec_form(rest: str) -> Optional[list[str]]:
    if not rest.startswith("["):
        return None
    try:
        words = json.loads(rest)
    except ValueError:
        return None
    return words if isinstance(words, list) and all(isinstance(w, str) for w in words) else None


_ENV_LINE = lazy_re(r"(?im)^[ \t]*(FROM|ENV)[ \t]+([^\n]*)$")
_ENV_PAIR = lazy_re(r"""([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|[^\s"']*)""")


def runs_script(source: str, script: str) -> bool:
    """Whether a container of the image the Dockerfile ``source`` builds runs the build context's
    file ``script`` (a path relative to the context, POSIX) as its process: its ``ENTRYPOINT`` (or,
    without one, its ``CMD``) names the path in the image a ``COPY`` / ``ADD`` puts that file (or
    the folder holding it) at."""
    proc = final_process(source)
    if proc is None:
        return False
    words = list(proc.entrypoint or []) + ([proc.entrypoint_shell] if proc.entrypoint_shell else [])
    if not proc.entrypoint and not proc.entrypoint_shell:
        words += proc.cmd or []
    script = posixpath.normpath(script)
    for dest, src in proc.copies.items():
        src = posixpath.normpath(src)
        if src == script:
            inside = dest
        elif src == "." or script.startswith(src + "/"):
            inside = posixpath.join(dest, script if src == "." else script[len(src) + 1:])
        else:
            continue
        base = posixpath.basename(inside)
        for w in words:
            for part in w.split():
                part = part.strip("\"'")
                if part == inside or (not part.startswith("/") and posixpath.basename(part) == base
                                      and posixpath.normpath(part).endswith(base)):
                    return True
    return False


def final_env(source: str) -> dict[str, tuple[str, int]]:
    """The literal values the final stage's ``ENV`` instructions set (``ENV A=1 B="x"``, legacy
    ``ENV A 1``): name -> (value, its line); a value that expands a variable is left out."""
    out: dict[str, tuple[str, int]] = {}
    lines = source.split("\n")
    for m in _ENV_LINE.finditer(source):
        if m.group(1).upper() == "FROM":
            out = {}
            continue
        rest = m.group(2).strip()
        row = source.count("\n", 0, m.start()) + 1
        k = row
        if rest.endswith("\\"):
            # continuation lines: the instruction's words to its end
            while rest.endswith("\\") and k < len(lines):
                rest = rest[:-1] + " " + lines[k].strip()
                k += 1
        first = rest.split(None, 1)[0] if rest else ""
        if "=" in first:
            for p in _ENV_PAIR.finditer(rest):
                value = p.group(2)
                if value[:1] in "\"'" and len(value) >= 2:
                    value = value[1:-1] if value[0] == "'" else re.sub(r"\\(.)", r"\1", value[1:-1])
                # (its own line, of the instruction's continued ones)
                at = next((r for r in range(row, k + 1) if p.group(1) + "=" in lines[r - 1]), row)
                if "$" not in value:
                    out[p.group(1)] = (value, at)
                else:
                    out.pop(p.group(1), None)
        elif first:
            parts = rest.split(None, 1)
            value = parts[1].strip() if len(parts) > 1 else ""
            if len(value) >= 2 and value[0] in "\"'" and value[-1] == value[0]:
                value = value[1:-1]
            if "$" not in value:
                out[first] = (value, row)
            else:
                out.pop(first, None)
    return out
