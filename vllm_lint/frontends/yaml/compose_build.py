"""A compose service built from a local Dockerfile (``build: ./dir`` or ``build: {context,
dockerfile, dockerfile_inline, args}``): the image its final stage starts ``FROM`` (stage names
followed, ``${ARG}`` from the service's ``build.args`` or the Dockerfile's ``ARG`` defaults) names
the release when it is a vLLM image, else the release its ``RUN`` lines pin (``pip install
vllm==0.11.2``) does; the service's ``image:`` is then the name the build gives its result (a
local name such as ``local/vllm-openai:dev`` names no release); and, unless the Dockerfile sets its own ``ENTRYPOINT``, the
program the service's ``command`` is given to. The Dockerfile is a file this analysis read: it
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
    return None if base is None else BuildBase(base[0], base[1], t.content_span(build), pinned_vllm(source, args))


def _read(compose_path: str, context: str, dockerfile: str) -> Optional[str]:
    from vllm_lint import inputs

    raw = inputs.read_other(os.path.join(os.path.dirname(os.path.abspath(compose_path)), context, dockerfile),
                            _MAX_BYTES)
    return None if raw is None else raw.decode("utf-8", "replace")
