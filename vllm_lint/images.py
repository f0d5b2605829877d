"""What an image reference names (its repository, tag and digest) and whether it holds vLLM:
the one place the front-ends (``frontends.commands`` re-exports these), the files around a launch
(``pipeline.surroundings``) and the tag schemes (``knowledge.image_tags``) ask."""

from __future__ import annotations

from functools import lru_cache

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional


#: the version a hint gives for vLLM built from its own source at a revision nobody names (the
#: server stage of vLLM's Dockerfile from a checkout the repository does not hold): a release
#: between the database's oldest and newest, which ``knowledge.image_tags.read_hint`` reads so
UNNAMED_REVISION = "at a revision nobody names"

# (``nvidia``: NGC's ``nvcr.io/nvidia/vllm``; ``rhaiis``: Red Hat AI Inference Server's
# ``registry.redhat.io/rhaiis/vllm-cuda-rhel9``; ``deep-learning-containers``: AWS's public vLLM DLC)
_VLLM_NAMESPACES = {"vllm", "rocm", "lmcache", "intel", "vllm-project", "nvidia", "rhaiis", "deep-learning-containers"}
_VLLM_REPOS = {"vllm-ci-postmerge-repo", "vllm-ci-test-repo", "vllm-release-repo"}


#: the keys of a mapping that hold the tag of an untagged image written beside it, read by the YAML
#: front-end (``frontends.yaml.containers.release_node``) and the files around a launch
#: (``pipeline.surroundings``) alike: Helm values' ``image: {repository, tag}`` and a mapping's own
#: ``repository:`` + ``tag:``, llmaz's BackendRuntime ``image: vllm/vllm-openai`` + ``version: v0.6.0``,
#: ``imageTag``
TAG_KEYS = ("tag", "version", "imageTag", "image_tag", "imageVersion", "image_version")


def _split_image(image: str) -> tuple[str, Optional[str], Optional[str]]:
    """``(repository path incl. registry, tag or None, digest or None)``."""
    digest = None
    if "@" in image:
        image, digest = image.split("@", 1)
    tag = None
    slash = image.rfind("/")
    colon = image.rfind(":")
    if colon > slash:
        image, tag = image[:colon], image[colon + 1 :]
    return image, tag, digest


@lru_cache(maxsize=1024)  # (asked of the same images by the front-ends, the release choice and the rules)
def image_is_vllm(image: str) -> bool:
    """True for images whose entrypoint is vLLM's OpenAI server.

    ``vllm/vllm-openai[:tag]`` under any registry prefix, ``*/vllm-openai*`` (``lmcache/vllm-openai``,
    ``vllm/vllm-openai-rocm``), ``rocm/vllm[-dev]``, ``vllm/vllm-tpu``, NGC's ``nvidia/vllm``, Red
    Hat's ``rhaiis/vllm-*``, AWS's ``deep-learning-containers/vllm``, vLLM's CI/release ECR
    repositories. Not arbitrary images that merely mention vllm (``myorg/vllm-proxy``).
    """
    if not image:
        return False
    repo, _tag, _digest = _split_image(image.strip().lower())
    if "$" in repo or "{" in repo:  # (a variable tag, `vllm/vllm-openai:${TAG}`, names vLLM's image still)
        return False
    parts = [p for p in repo.split("/") if p]
    if not parts:
        return False
    last = parts[-1]
    if last.startswith("vllm-openai") and _named(last, 11):
        return True
    if last in _VLLM_REPOS:
        return True
    if len(parts) >= 2 and parts[-2] in _VLLM_NAMESPACES and last.startswith("vllm") and _named(last, 4):
        return True
    return False


def _named(last: str, n: int) -> bool:
    """Whether ``last``, which starts with a name of ``n`` characters (``vllm-openai``, ``vllm``),
    is that name or that name, one of ``-_.`` and more: ``re.match(name + r"([-_.].*)?$", last)``,
    read without compiling it (~0.35 M instructions of every lint reading an image; ``.`` is no
    line break, and ``$`` also matches before a last one)."""
    rest = last[n:]
    if rest[-1:] == "\n":
        rest = rest[:-1]
    return not rest or (rest[0] in "-_." and "\n" not in rest)


def image_is_vllms_own(image: Optional[str]) -> bool:
    """vLLM's own server image (``vllm/vllm-openai[-*]`` under any registry), built from the
    release's ``docker/Dockerfile``: no environment of another's image added."""
    if not image:
        return False
    parts = [p for p in _split_image(image.strip().lower())[0].split("/") if p]
    return len(parts) >= 2 and parts[-2] == "vllm" and parts[-1].startswith("vllm-openai") and "$" not in parts[-1]


#: namespaces whose vLLM images hold vLLM but start a shell (``CMD ["/bin/bash"]``, no entrypoint)
_SHELL_NAMESPACES = {"rocm", "nvidia", "deep-learning-containers"}
#: repositories of vLLM's own that start a shell: ``vllm/vllm-tpu`` (vLLM's ``docker/Dockerfile.tpu``
#: ends in ``CMD ["/bin/bash"]`` with no ``ENTRYPOINT``: read in the 0.10.2, 0.12.0, 0.20.0 and
#: 0.29.0 sdists; its users run ``vllm serve`` as the container's command)
_SHELL_REPOS = {"vllm-tpu"}


#: vendor images that hold vLLM but whose command is the user's (NGC's documented use is
#: ``docker run -it nvcr.io/nvidia/vllm:25.10-py3`` then ``vllm serve`` inside): words given after
#: them are not vLLM's options, though their tag names the release (``knowledge.image_tags``)
_COMMAND_NAMESPACES = {"nvidia", "deep-learning-containers"}


def image_takes_vllm_args(image: str) -> bool:
    """True for the images of :func:`image_is_vllm` to which words given after the image (``docker
    run IMAGE ARGS``, a container's ``args:`` alone) are vLLM's: not the vendor images of
    ``_COMMAND_NAMESPACES``."""
    if not image_is_vllm(image):
        return False
    parts = [p for p in _split_image(image.strip().lower())[0].split("/") if p]
    return not (len(parts) >= 2 and parts[-2] in _COMMAND_NAMESPACES)


def image_starts_vllm(image: str) -> bool:
    """True for the images of :func:`image_is_vllm` whose entrypoint is vLLM's server, so that
    a ``CMD`` given to them is vLLM's arguments: not ROCm's (``rocm/vllm``, ``rocm/vllm-dev``,
    whose default command is a shell and whose ``:base`` holds no vLLM at all), nor
    ``vllm/vllm-tpu`` (a shell too)."""
    if not image_is_vllm(image):
        return False
    parts = [p for p in _split_image(image.strip().lower())[0].split("/") if p]
    return not (len(parts) >= 2 and parts[-2] in _SHELL_NAMESPACES) and parts[-1] not in _SHELL_REPOS


def version_from_image(image: str) -> Optional[str]:
    """The tag of an image as written (``"v0.8.5"``, ``"latest"``, ``"0.9.2-cu124"``).

    Digest-only references give None; an untagged reference is ``"latest"`` (what Docker pulls).
    Tags that are template expressions (``${VLLM_TAG}``) give None.
    """
    _repo, tag, digest = _split_image(image.strip())
    if tag is None:
        return None if digest else "latest"
    if not tag or "$" in tag or "{" in tag:
        return None
    return tag
