"""## What it does
Finds a vLLM image referenced by a floating tag: `vllm/vllm-openai:latest`, `:nightly` (also a
build's `:cu130-nightly`; a `nightly-<commit>` tag is fixed), or no tag
at all (Docker pulls `latest`), in Kubernetes manifests, compose files, Helm values, a Dockerfile's
`FROM` and `docker run` / `podman run` lines, also where the file starts no vLLM itself (Helm values
`image: {repository: vllm/vllm-openai, tag: latest}`, a compose service or container without a
command, a base-image Dockerfile without `CMD`). A Helm `image` with a repository and no tag is not
flagged: charts fill it from their `appVersion`. Documentation (Markdown, notebooks) is not
checked: it shows `:latest` on purpose.

## Why is this bad?
The release that runs is whatever the tag points to on the day the image is pulled, so it changes
under the file without an edit: options and environment variables that the release you checked
accepts may be renamed, deprecated or removed in the next one, and no check of the file holds
beyond the day it ran. The message names the release the file was checked against instead.

## Example
```yaml
containers:
  - name: vllm
    image: vllm/vllm-openai:latest
```

## Fix safety
No fix: which release to pin is the user's choice. Pin a release tag (`v0.27.1`) or a digest
(`@sha256:...`).

## Evidence
Docker's reference semantics (an untagged reference is `:latest`; tags are mutable, digests are
not); vLLM publishes a release tag per version on Docker Hub next to the moving `latest` and
`nightly` tags (vLLM 0.33.0 `docs/deployment/docker.md`). The tag is read by the front-ends
(`vllm_lint/frontends/commands.py::version_from_image`, the YAML and Dockerfile front-ends).
"""

from . import _facts
from .base import LintContext, Rule

RULE = Rule(code="VL406", name="floating-image-tag",
            summary="vLLM image with a floating tag (latest, nightly or none): the release changes under the file",
            severity="warning",
            triggers=frozenset((_facts.HINTS,)))

_SOURCES = ("image-tag", "dockerfile-from")


def _floating(tag: str) -> bool:
    t = tag.strip().lower()
    # (``cu130-nightly``, ``rocm-nightly``: the newest nightly of a build; ``nightly-<commit>`` is fixed)
    return (t in ("latest", "nightly") or t.startswith("latest-") and not any(c.isdigit() for c in t)
            or t.endswith("-nightly"))


def _hints(ctx: LintContext):
    """Image hints of this context: the launch's own, and the file's (once, on the file's first
    context: Dockerfile stages and compose services share them)."""
    out = []
    if ctx.launch is not None:
        out.extend(ctx.launch.version_hints)
    ex = ctx.extraction
    if ex is not None:
        first = ex.launches[0] if ex.launches else None
        if ctx.launch is first:
            out.extend(ex.version_hints)
    return out


def _image_tag(h) -> bool:
    """Whether the hint is an image's tag: a launch's image, a ``FROM``, or an ``ARG`` default that
    ``FROM`` uses (``ARG BASE_IMAGE=vllm/vllm-openai:latest`` then ``FROM ${BASE_IMAGE}``)."""
    return h.source in _SOURCES or (h.source == "dockerfile-arg" and bool(getattr(h, "image", None)))


@RULE.check
def check(ctx: LintContext):
    if ctx.documentation:
        return
    seen = set()
    for h in _hints(ctx):
        if not _image_tag(h) or not isinstance(h.version, str) or not _floating(h.version):
            continue
        key = (h.span.start, h.span.end) if h.span is not None else None
        if key in seen:
            continue
        seen.add(key)
        yield ctx.diag(RULE, f"the vLLM image tag `{h.version}` floats: the release that runs changes without an edit, "
                             f"so this file was checked against vLLM {ctx.target} ({ctx.target_source}) only; pin a "
                             f"release tag or a digest", h.span)
