"""KServe: an ``InferenceService`` ``predictor.model`` with a ``huggingface``/``vllm`` model format
(or a vLLM runtime) runs the Hugging Face server, whose ``args`` are its argv: vLLM's options
beside the server's own (listed in ``vllm_lint/wrapper_options.py`` under the launch's entry),
unless ``--backend huggingface`` loads the model with transformers and vLLM never starts;
``LLMInferenceService`` appends ``VLLM_ADDITIONAL_ARGS`` to its ``vllm serve`` command, so that
variable is read as an argument list (``env.ENV_ARG_CARRIERS``). A ``ServingRuntime``'s
``opendatahub.io/runtime-version`` annotation (Open Data Hub's and OpenShift AI's runtimes: the
vLLM release of the image, ``v0.18.0`` beside a Red Hat image pinned by digest) names the release of
its containers after their image's tag (:func:`runtime_versions`)."""

from __future__ import annotations

from vllm_lint.frontends.yaml.nodes import get, seq, text
from vllm_lint.launch import VersionHint

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional


def is_huggingface_server(node: Any) -> bool:
    """Whether a predictor's model mapping runs the Hugging Face server (or a vLLM runtime)."""
    fmt = get(node, "modelFormat")
    name = (text(get(fmt, "name")) or text(fmt) or "").lower()
    runtime = (text(get(node, "runtime")) or "").lower()
    return "huggingface" in name or "vllm" in name or "vllm" in runtime


def _backend(node: Any) -> Optional[str]:
    """The ``--backend`` the server's ``args`` choose (the last one: argparse keeps it), or None."""
    words = [text(w) or "" for w in seq(get(node, "args"))]
    chosen = None
    for i, w in enumerate(words):
        if w.startswith("--backend="):
            chosen = w.partition("=")[2]
        elif w == "--backend" and i + 1 < len(words):
            chosen = words[i + 1]
    return chosen


def args_entry(node: Any, ctx: dict[str, Any]) -> Optional[str]:
    """The entry of a mapping with ``args`` and no ``command`` that KServe runs with vLLM, or None:
    the Hugging Face server's, or vLLM's server in a runtime that says it runs vLLM
    (:func:`vllm_runtime_containers`: Open Data Hub's images start the api_server module)."""
    if ctx.get("kserve_runtime") == "vllm":
        return "openai.api_server"
    if not is_huggingface_server(node) or _backend(node) == "huggingface":
        return None
    return "kserve:huggingfaceserver"


def vllm_runtime_containers(root: Any) -> set[int]:
    """The ids of the container mappings of the serving runtimes of document ``root`` (itself, or
    the ``objects`` of an OpenShift ``Template``) that say they run vLLM: Open Data Hub's
    ``opendatahub.io/kserve-runtime: vllm`` annotation in the runtime's ``spec``, or a vLLM model
    format as the only one it supports. Such a runtime's container with arguments only runs vLLM's
    server, whatever its image is spelled with (a kustomize variable ``$(vllm-image)``)."""
    out: set[int] = set()
    for rt in _runtimes(root):
        spec = get(rt, "spec")
        said = (text(get(get(spec, "annotations"), "opendatahub.io/kserve-runtime")) or "").strip().lower()
        formats = [(text(get(f, "name")) or "").lower() for f in seq(get(spec, "supportedModelFormats"))]
        if said == "vllm" or (formats and all(f == "vllm" for f in formats)):
            out.update(id(c) for c in seq(get(spec, "containers")))
    return out


RUNTIME_KINDS = ("ServingRuntime", "ClusterServingRuntime")
RUNTIME_VERSION = "opendatahub.io/runtime-version"


def _runtimes(root: Any) -> list:
    """The serving runtimes of document ``root``: itself, or the ``objects`` of an OpenShift
    ``Template``."""
    kind = text(get(root, "kind"))
    if kind == "Template":
        return [o for o in seq(get(root, "objects")) if text(get(o, "kind")) in RUNTIME_KINDS]
    return [root] if kind in RUNTIME_KINDS else []


def runtime_versions(t: Any, root: Any, launches: list) -> None:
    """Add the ``opendatahub.io/runtime-version`` of each serving runtime of document ``root`` (the
    document itself, or the ``objects`` of an OpenShift ``Template``) to the version hints of the
    launches read inside it, after their own (an image's tag names the release first)."""
    for rt in _runtimes(root):
        node = get(get(get(rt, "metadata"), "annotations"), RUNTIME_VERSION)
        version = text(node)
        if not version or not version.strip():
            continue
        whole = t.node_span(rt)
        hint = VersionHint(version.strip(), "runtime-version annotation", t.node_span(node))
        for la in launches:
            if whole is None or whole.start <= la.span.start < whole.end:
                la.version_hints = list(la.version_hints) + [hint]
