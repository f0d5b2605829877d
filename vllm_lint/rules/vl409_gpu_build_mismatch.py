"""## What it does
In a Dockerfile, finds a vLLM install whose GPU build does not match the stage's base image:

* a ROCm base image (`rocm/vllm`, `rocm/pytorch`, `rocm/dev-*`, `vllm/vllm-openai-rocm`, any image
  whose name says `rocm`) with `pip install vllm` / `uv pip install vllm` from PyPI (no index or
  find-links URL naming ROCm, no `+rocm` version): PyPI's vLLM wheels are CUDA builds;
* a CUDA base image (`nvidia/cuda`, `vllm/vllm-openai`) with a vLLM install from a ROCm index
  (`--extra-index-url https://wheels.vllm.ai/rocm/...`) or a `+rocm` version.

Stages inherit their base through `FROM <stage>`. Kubernetes and compose containers whose command
runs `pip install vllm` are not checked yet: the front-ends pass rules the tag of a vLLM image
only, not the image a container runs (`rocm/pytorch`, `nvidia/cuda`).

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
from ._file_scope import file_format, is_first_context
from .base import LintContext, Rule

RULE = Rule(code="VL409", name="gpu-build-mismatch",
            summary="a CUDA build of vLLM installed over a ROCm base image, or a ROCm build over a CUDA one",
            severity="warning")

_INSTR = lazy_re(rb"^[ \t]*(FROM|RUN)[ \t]+((?:[^\n\\]|\\.|\\\n)*)", re.M | re.I)
_INSTALL = lazy_re(rb"(?:^|(?<=[\s;&|(]))(?:uv\s+)?(?:python3?\s+-m\s+)?pip3?\s+install\b(?P<rest>[^;&|]*)")
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


@RULE.check
def check(ctx: LintContext):
    if not is_first_context(ctx) or file_format(ctx) != "dockerfile":
        return
    data = ctx.data
    stages: dict[str, str | None] = {}
    kind = None
    image = ""
    for m in _INSTR.finditer(data):
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
        if kind is None:
            continue
        base = m.start(2)
        for inst in _INSTALL.finditer(body):
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
                start = base + inst.start("rest") + w.start()
                span = Span(start, start + len(w.group(0)))
                req = w.group(0).decode("utf-8", "replace")
                if kind == "rocm" and not rocm_build:
                    yield ctx.diag(RULE, f"`{req}` installs PyPI's CUDA build of vLLM over the ROCm image `{image}`: it "
                                         f"replaces the image's ROCm build and fails on AMD GPUs at start; install from "
                                         f"vLLM's ROCm index (--extra-index-url https://wheels.vllm.ai/rocm/) or keep the "
                                         f"image's vLLM", span)
                elif kind == "cuda" and rocm_build:
                    yield ctx.diag(RULE, f"`{req}` installs a ROCm build of vLLM over the CUDA image `{image}`: it does "
                                         f"not run on NVIDIA GPUs", span)
