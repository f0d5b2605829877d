"""Other tools' YAML that carries vLLM's engine options in a block of its own: a benchmark
launcher's ``vllm_config:``, a serving template's ``engine_args:`` / ``serve_args:``, Baseten's
``model_metadata.vllm_config``, a ``runtime:`` block beside a vLLM image. Known by content, not by
the tool: a mapping whose keys are option names (``tensor_parallel_size``, ``max-model-len``,
``--enforce-eager``) of which most are vLLM's, under a key that names vLLM's engine or server, or
inside (or beside) a mapping that sets a vLLM image. It is read as a ``--config`` file's keys are
(one ``style="config"`` launch, every key and value at its own bytes).

Under a key that names vLLM (``vllm_config``, ``engine_args``) every key of the block is taken as an
option, so a misspelt one is found; in a block that only sits beside a vLLM image (``runtime:``),
the block also holds the tool's own keys (``image``, ``replicas``), and only the keys known as
vLLM's are read. So it is in a Kubernetes custom resource (an operator's ``VllmDeployment`` with
a ``vLLMConfig:`` block): its keys are the operator's API, which its controller turns into vLLM's
words as it chooses (``log-level`` passed as ``--uvicorn-log-level``), and only those known as
vLLM's are read, by their values.
"""

from __future__ import annotations

from vllm_lint.frontends.yaml.config_file import COMMON_OPTIONS, norm_key
from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.frontends.yaml.values import OPTION_KEY, key_style
from vllm_lint.launch import Launch, Span
from vllm_lint.record import screened_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

# a key that names vLLM's engine or server options: vllm_config, vllmConfig, engine_args,
# engine-kwargs, serve_args, server_options, vllm_args, vllm (the block of a `vllm:` component)
_NAMES_VLLM = screened_re(  # (screened: tried on every mapping key of a document naming vLLM)
    r"(?i)(?:vllm|engine|serve|server|serving|vllm[_-]?(?:engine|serve|server))"
    r"(?:[_-]?(?:config|configs|args|arguments|kwargs|options|params|parameters|settings|flags))?")
# where a block's neighbours name the model it serves (a display name such as truss's
# `model_name` is not one)
_MODEL_KEYS = ("model", "model_id", "modelId", "repo_id", "model_path", "modelPath")
# the hub id inside a `model:` mapping of its own
_MODEL_ID_KEYS = ("id", "repo_id", "hf_id", "name")
_MAX_KEYS = 200
# a root key that says which program runs a recipe's vLLM workers, and its wrapper's entry
# (vllm_lint/wrapper_options.py): an srt-slurm recipe with `dynamo:` runs `python -m dynamo.vllm`,
# whose own options (`dyn-tool-call-parser`) sit among vLLM's
_RUNNERS = (("dynamo", "dynamo.vllm"),)
# the keys beside a block where a launcher names the image that runs it
_IMAGE_KEYS = ("image", "container", "container_image", "containerImage", "docker_image", "base_image")


def sibling_image(km: dict[str, Any]) -> Optional[ScalarNode]:
    """The image a mapping names as a string at one of :data:`_IMAGE_KEYS`, or None."""
    for k in _IMAGE_KEYS:
        v = km.get(k)
        if isinstance(v, ScalarNode) and v.value.strip() and " " not in v.value.strip():
            return v
    return None


def runner_entry(top: dict[str, Any]) -> str:
    """The entry a document's blocks run under: a wrapper whose own options the blocks may hold
    when the document says it runs the workers (a root key of :data:`_RUNNERS`), else vLLM's
    ``--config`` file's."""
    return next((entry for key, entry in _RUNNERS if key in top), "config-file")


def custom_resource(top: dict[str, Any]) -> bool:
    """Whether a document is a Kubernetes custom resource (``apiVersion`` of a group named by a
    domain, not one of Kubernetes' own ``*.k8s.io``, and a ``kind``): an operator's API."""
    api, kind = top.get("apiVersion"), top.get("kind")
    if not isinstance(api, ScalarNode) or not isinstance(kind, ScalarNode):
        return False
    group, slash, _version = str(api.value).partition("/")
    return bool(slash) and "." in group and not group.endswith(".k8s.io")


def block_launches(t: YamlText, key: Optional[str], node: Any, parent_km: dict[str, Any], beside_image: bool,
                   versions: list, entry: str = "config-file", operator: bool = False) -> list[Launch]:
    """The launches of the mapping ``node`` under ``key`` (its parent's keys ``parent_km``;
    ``beside_image``: it or an enclosing mapping sets a vLLM image): one, or one per role of a
    block of roles under a key that names vLLM (``vllm_config: {prefill: {...}, decode: {...}}``),
    or none when it is no block of vLLM options. ``operator``: the document is a custom resource,
    whose keys are its operator's (:func:`custom_resource`): only those known as vLLM's are read."""
    if id(node) in t.consumed:  # (read by the document's own reader: Ray's engine_kwargs, its roles too)
        return []
    named = key is not None and _NAMES_VLLM.fullmatch(key) is not None
    if named and isinstance(node, MappingNode) and node.value and all(
            isinstance(k, ScalarNode) and isinstance(v, MappingNode) for k, v in node.value):
        out = []
        for _role, inner in node.value:
            la = _block_launch(t, inner, True, parent_km, beside_image, versions, entry, operator)
            if la is not None:
                out.append(la)
        return out
    la = _block_launch(t, node, named, parent_km, beside_image, versions, entry, operator)
    return [la] if la is not None else []


def _block_launch(t: YamlText, node: Any, named: bool, parent_km: dict[str, Any], beside_image: bool,
                  versions: list, entry: str, operator: bool = False) -> Optional[Launch]:
    if not isinstance(node, MappingNode) or not 0 < len(node.value) <= _MAX_KEYS or id(node) in t.consumed:
        return None
    keys = [k.value if isinstance(k, ScalarNode) else None for k, _v in node.value]
    if any(k is None for k in keys):
        return None
    known = [k for k in keys if norm_key(k) in COMMON_OPTIONS]
    if named:
        # every key an option name, most of them vLLM's (one of two will do)
        if not all(OPTION_KEY.match(k) for k in keys) or not known or len(known) * 2 <= len(keys) - (len(keys) <= 2):
            return None
        chosen = set(known) if operator else None  # (an operator's keys: its controller maps them)
    elif beside_image and len(known) >= 2:
        chosen = set(known)
    else:
        return None
    launch = Launch(path=t.path, entry=entry, style="config", span=t.content_span(node) or Span(0, 0),
                    keyed=t.keyed_args(node, style_of=key_style,
                                       keys=None if chosen is None else chosen.__contains__),
                    version_hints=list(versions))
    if "model" not in keys:
        for mk in _MODEL_KEYS:
            v = parent_km.get(mk)
            if isinstance(v, MappingNode):  # (`model: {id: Qwen/Qwen2.5-0.5B-Instruct, path: ...}`)
                v = next((iv for ik, iv in v.value if isinstance(ik, ScalarNode) and ik.value in _MODEL_ID_KEYS), None)
            if isinstance(v, ScalarNode) and v.value.strip() and not v.value.startswith("-"):
                launch.take_context({"model": v.value.strip()})
                break
    launch.read_as = "a block of vLLM options in another tool's configuration"
    t.consumed.add(id(node))
    return launch
