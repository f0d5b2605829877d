"""## What it does
Finds a vLLM install whose GPU build does not match the image it runs on, in a Dockerfile stage
or in the `sh -c` script of a Kubernetes or compose container that launches vLLM:

* a ROCm base image (`rocm/vllm`, `rocm/pytorch`, `rocm/dev-*`, `vllm/vllm-openai-rocm`, any image
  whose name says `rocm`) with `pip install vllm` / `uv pip install vllm` from PyPI (no index or
  find-links URL naming ROCm, no `+rocm` version): PyPI's vLLM wheels are CUDA builds;
* a CUDA base image (`nvidia/cuda`, `vllm/vllm-openai`) with a vLLM install from a ROCm index
  (`--extra-index-url https://wheels.vllm.ai/rocm/...`) or a `+rocm` version.

Stages inherit their base through `FROM <stage>`; a Dockerfile stage is checked whether or not
the file launches vLLM. A container is checked when its script launches vLLM: the front-end gives
the container's `image:` and where the script is written. An install in a container that starts
no vLLM, or an image named through a variable, is not checked.

## Why is this bad?
The install replaces the image's vLLM (and usually its torch) with a build for the other vendor's
GPUs: the image builds, and the server fails at start (`libcudart.so: cannot open shared object
file` on AMD GPUs).

## Example
```dockerfile
FROM rocm/vllm:latest
RUN pip install vllm==0.27.1
```

## Fix safety
No fix: install from vLLM's ROCm wheel index (`--extra-index-url https://wheels.vllm.ai/rocm/`), or
use the image's own vLLM.

## Evidence
vLLM 0.33.0 `docs/getting_started/installation/gpu.rocm.inc.md` (ROCm wheels come from
`https://wheels.vllm.ai/rocm/`; falling back to "the CUDA wheel from PyPI ... will fail on AMD GPUs
with errors like `libcudart.so: cannot open shared object file`"). A warning: the build is
accepted, the failure comes at start.
"""

import re

from ..record import lazy_re
from ..launch import Span
from ._file_scope import is_first_context
from . import _facts
from .base import LintContext, Rule

RULE = Rule(code="VL409", name="gpu-build-mismatch",
            summary="a CUDA build of vLLM installed over a ROCm base image, or a ROCm build over a CUDA one",
            severity="warning",
            triggers=frozenset((_facts.FIRST_CONTEXT, _facts.IMAGE_SCRIPT)))

_INSTR = lazy_re(rb"^[ \t]*(FROM|RUN)[ \t]+((?:[^\n\\]|\\.|\\\n)*)", re.M | re.I)
# an install command up to the end of its shell command (a line continuation does not end it)
_INSTALL = lazy_re(rb"(?:^|(?<=[\s;&|(\"']))(?:uv\s+)?(?:python3?\s+-m\s+)?pip3?\s+install\b"
                   rb"(?P<rest>(?:[^;&|\n\\]|\\[^\n]|\\\n)*)")
_WORD = lazy_re(rb"[^\s\\]+")
_VLLM_REQ = lazy_re(rb"^['\"]?vllm(\[[^\]]*\])?(?P<spec>[=<>!~][^'\"]*)?['\"]?$", re.I)
_URL_OPTS = (b"--extra-index-url", b"--index-url", b"-i", b"--find-links", b"-f")


def _kind(image: str) -> str | None:
    low = image.lower()
    repo = low.split("@", 1)[0].rsplit(":", 1)[0] if "/" in low or ":" in low else low
    if "rocm" in repo:
        return "rocm"
    if repo.endswith(("nvidia/cuda", "vllm/vllm-openai")) or "nvcr.io/nvidia/" in repo:
        return "cuda"
    return None


def _mismatches(ctx: LintContext, start: int, end: int, kind: str, image: str):
    """Findings for the vLLM installs in ``ctx.data[start:end]`` (one RUN, or a container's
    script) run on an image of GPU ``kind``."""
    data = ctx.data
    for inst in _INSTALL.finditer(data, start, end):
        rest = inst.group("rest")
        words = list(_WORD.finditer(rest))
        urls = [words[i + 1].group(0) for i, w in enumerate(words[:-1]) if w.group(0) in _URL_OPTS]
        urls += [w.group(0).split(b"=", 1)[1] for w in words if b"=" in w.group(0)
                 and w.group(0).split(b"=", 1)[0] in _URL_OPTS]
        rocm_source = any(b"rocm" in u.lower() for u in urls)
        for w in words:
            r = _VLLM_REQ.match(w.group(0))
            if not r:
                continue
            rocm_build = rocm_source or b"+rocm" in w.group(0).lower()
            at = inst.start("rest") + w.start()
            span = Span(at, at + len(w.group(0)))
            req = w.group(0).decode("utf-8", "replace")
            if kind == "rocm" and not rocm_build:
                yield ctx.diag(RULE, f"`{req}` installs PyPI's CUDA build of vLLM over the ROCm image `{image}`: it "
                                     f"replaces the image's ROCm build and fails on AMD GPUs at start; install from "
                                     f"vLLM's ROCm index (--extra-index-url https://wheels.vllm.ai/rocm/) or keep the "
                                     f"image's vLLM", span)
            elif kind == "cuda" and rocm_build:
                yield ctx.diag(RULE, f"`{req}` installs a ROCm build of vLLM over the CUDA image `{image}`: it does "
                                     f"not run on NVIDIA GPUs", span)


def _dockerfile(ctx: LintContext):
    stages: dict[str, str | None] = {}
    kind = None
    image = ""
    for m in _INSTR.finditer(ctx.data):
        op, body = m.group(1).upper(), m.group(2)
        if op == b"FROM":
            words = [w.decode("utf-8", "replace") for w in _WORD.findall(body) if not w.startswith(b"--")]
            if not words:
                kind = None
                continue
            image = words[0]
            kind = stages.get(image.lower(), _kind(image)) if "$" not in image else None
            if len(words) >= 3 and words[1].lower() == "as":
                stages[words[2].lower()] = kind
            continue
        if kind is not None:
            yield from _mismatches(ctx, m.start(2), m.end(2), kind, image)


def _container_script(ctx: LintContext):
    """A launch in a container's ``sh -c`` script (Kubernetes, compose): the container's image."""
    launch = ctx.launch
    if launch is None:
        return
    image, span = launch.image, launch.script_span
    if not isinstance(image, str) or "$" in image or span is None:
        return
    kind = _kind(image)
    if kind is not None:
        yield from _mismatches(ctx, span.start, span.end, kind, image)


@RULE.check
def check(ctx: LintContext):
    if ctx.file_format is not None and ctx.file_format.builds_image:
        if is_first_context(ctx):
            yield from _dockerfile(ctx)
    else:
        yield from _container_script(ctx)
