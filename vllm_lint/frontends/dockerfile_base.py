"""The image a Dockerfile's final stage starts ``FROM`` (stage names followed, ``${ARG}`` from
the build's arguments or the Dockerfile's ``ARG`` defaults), and whether it keeps that image's
entrypoint: what a compose service built from a local Dockerfile (``yaml/compose_build``) and a
script's ``docker run`` of an image it builds (``shell``) run. Pure text work, no front-end
imported (both of those import it)."""

from __future__ import annotations

import re
from typing import Optional

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
