"""A compose service built from a local Dockerfile (``build: ./dir`` or ``build: {context,
dockerfile, dockerfile_inline, args}``): the image its final stage starts ``FROM`` (stage names
followed, ``${ARG}`` from the service's ``build.args`` or the Dockerfile's ``ARG`` defaults) names
the release when it is a vLLM image, else the release its ``RUN`` lines pin (``pip install
vllm==0.11.2``) does; the service's ``image:`` is then the name the build gives its result (a
local name such as ``local/vllm-openai:dev`` names no release); and, unless the Dockerfile sets its own ``ENTRYPOINT``, the
program the service's ``command`` is given to. A Dockerfile whose own ``ENTRYPOINT`` starts vLLM's
server (exec form: ``["python", "-m", "vllm.entrypoints.openai.api_server"]``, ``["vllm", "serve"]``,
or a script the Dockerfile writes or copies that runs vLLM with ``"$@"``) gives the service's
``command`` to vLLM: :attr:`BuildBase.entry`. The Dockerfile is a file this analysis read: it
is recorded through :mod:`vllm_lint.inputs`.
"""

# (no ``from __future__ import annotations``: typing.NamedTuple turns string annotations into
# forward references, compiled with ``compile()``, whose first call in a process builds the
# ast module's ~120 node classes: ~10 M instructions of a one-file lint; benchmarks/README.md)

import os
from typing import Any, NamedTuple, Optional

from vllm_lint.frontends.dockerfile_base import final_base, pinned_vllm
from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode
from vllm_lint.frontends.yaml.nodes import get, text
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.launch import Span

_MAX_BYTES = 1024 * 1024


class BuildBase(NamedTuple):
    image: str  # the final stage's base image, ARGs substituted
    entrypoint_kept: bool  # the Dockerfile sets no ENTRYPOINT of its own
    span: Optional[Span]  # the service's `build` value
    pin: Optional[str]  # the vLLM release its RUN lines pin (`pip install vllm==0.11.2`), if one
    # its own ENTRYPOINT starts vLLM's server with the run's words: (vLLM's entry, the words the
    # ENTRYPOINT gives vLLM itself, how it was read); None otherwise (none, a shell form, another program)
    entry: Optional[tuple] = None


def build_base(t: YamlText, build: Any) -> Optional[BuildBase]:
    """The base image of the service whose ``build`` value is ``build``, or None (a remote
    context, a Dockerfile that cannot be read, a base that stays unknown)."""
    context = text(build) if isinstance(build, ScalarNode) else text(get(build, "context")) or "."
    if context is None or "://" in context or context.startswith("git@"):
        return None
    args: dict[str, str] = {}
    inline = None
    dockerfile = "Dockerfile"
    if isinstance(build, MappingNode):
        dockerfile = text(get(build, "dockerfile")) or dockerfile
        inline = text(get(build, "dockerfile_inline"))
        a = get(build, "args")
        if isinstance(a, MappingNode):
            args = {k.value: text(v) or "" for k, v in a.value if isinstance(k, ScalarNode)}
    source = inline if inline is not None else _read(t.path, context, dockerfile)
    if source is None:
        return None
    base = final_base(source, args)
    if base is None:
        return None
    entry = None if base[1] else _entry(source, args, t.path, context)
    return BuildBase(base[0], base[1], t.content_span(build), pinned_vllm(source, args), entry)


def _entry(source: str, args: dict[str, str], compose_path: str, context: str) -> Optional[tuple]:
    """(vLLM's entry, its ENTRYPOINT's own words after vLLM's command, how) when the Dockerfile's
    own ``ENTRYPOINT`` starts vLLM's server with the run's words appended; None otherwise (a shell
    form ignores them)."""
    import posixpath

    from vllm_lint.frontends.commands import find_vllm_command
    from vllm_lint.frontends.dockerfile_base import final_process

    proc = final_process(source, args)
    if proc is None or not proc.entrypoint:
        return None
    words = proc.entrypoint
    found = find_vllm_command(words)
    if found is not None and not found.entry.startswith("docker:"):
        return found.entry, words[found.args_start:], f"its Dockerfile's ENTRYPOINT `{' '.join(words)}` starts vLLM"
    if len(words) == 1 or (len(words) == 2 and words[0].rsplit("/", 1)[-1] in ("sh", "bash", "dash")):
        key = posixpath.normpath(words[-1])
        text_ = proc.scripts.get(key)
        if text_ is None and key in proc.copies:
            from vllm_lint import inputs

            raw = inputs.read_other(os.path.join(os.path.dirname(os.path.abspath(compose_path)), context,
                                                 proc.copies[key]), _MAX_BYTES)
            text_ = raw.decode("utf-8", "replace") if raw is not None else None
        if text_ is not None and "vllm" in text_.lower():
            from vllm_lint.frontends.shell import script_passes_args

            passed = script_passes_args(text_.encode("utf-8", "surrogatepass"), compose_path)
            if passed is not None:
                return passed[0], passed[1], f"its Dockerfile's ENTRYPOINT `{words[-1]}` runs vLLM with the run's words (`\"$@\"`)"
    return None


def _read(compose_path: str, context: str, dockerfile: str) -> Optional[str]:
    from vllm_lint import inputs

    raw = inputs.read_other(os.path.join(os.path.dirname(os.path.abspath(compose_path)), context, dockerfile),
                            _MAX_BYTES)
    return None if raw is None else raw.decode("utf-8", "replace")
