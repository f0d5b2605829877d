"""KServe ``LLMInferenceService``: the controller's template starts ``vllm serve /mnt/models`` in
the ``main`` container with ``--tensor-parallel-size`` from ``spec.parallelism.tensor``, then the
words of ``VLLM_ADDITIONAL_ARGS`` and then the container's ``args``: one launch, whose keys and
words keep their positions in the file (inside the variable's value too). ``spec.model.uri``
(``hf://org/name``) names the model; the container's ``resources`` its GPUs. A ``main``
container with its own ``command`` is read as any container; ``spec.worker`` (leader and worker
pods, data-parallel ranks split over them) leaves the layout to the pods.
"""

from __future__ import annotations

from vllm_lint.frontends.yaml.containers import image_version
from vllm_lint.frontends.yaml.deleters import make_deleter
from vllm_lint.frontends.yaml.env import ENV_ARG_CARRIERS, k8s_env
from vllm_lint.frontends.yaml.hardware import hardware_here
from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode
from vllm_lint.frontends.yaml.nodes import PairView, get, get_pair, seq, text
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.frontends.yaml.words import split_value, word_texts
from vllm_lint.container import Container
from vllm_lint.launch import Launch, Span

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any

KIND = "LLMInferenceService"
# spec.parallelism keys the single-node template renders, and the option each becomes
_PARALLELISM_OPTIONS = {"tensor": "--tensor-parallel-size"}


def read(t: YamlText, root: Any) -> None:
    """The launches of an LLMInferenceService document (its decode part, and ``spec.prefill``)."""
    spec = get(root, "spec")
    if not isinstance(spec, MappingNode):
        return
    model = text(get(get(spec, "model"), "uri")) or ""
    for part in (spec, get(spec, "prefill")):
        if isinstance(part, MappingNode):
            _part(t, part, model)


def _part(t: YamlText, part: Any, model_uri: str) -> None:
    containers = [c for c in seq(get(get(part, "template"), "containers")) if isinstance(c, MappingNode)]
    main = next((c for c in containers if text(get(c, "name")) == "main"), None)
    if main is None or get(main, "command") is not None:
        return  # no container the template starts, or one that says what it runs
    image_node = get(main, "image")
    image = text(image_node)  # (the template's default image, llm-d's, runs vLLM too)
    ctx: dict[str, Any] = {"kind": KIND}
    if image:
        ctx["image"] = image
    if model_uri.startswith("hf://"):
        ctx["model"] = model_uri[len("hf://"):]
    keyed = []
    option_for_key: dict[str, str] = {}
    par = get(part, "parallelism")
    for key, opt in _PARALLELISM_OPTIONS.items():
        pair = get_pair(par, key)
        if pair is not None:
            keyed.extend(t.keyed_args(PairView(pair), style_of=lambda k: "camel"))
            option_for_key[key] = opt
    ctx["option_for_key"] = option_for_key
    words = []
    for item in seq(get(main, "env")):
        val = get(item, "value")
        if text(get(item, "name")) in ENV_ARG_CARRIERS and isinstance(val, ScalarNode):
            words.extend(t.string_words(val))
            t.consumed.add(id(val))
    words.extend(t.words_from(get(main, "args")))
    span = t.content_span(part) or Span(0, 0)
    args_node = get(main, "args")
    box = Container("kserve", span, name="main", image=image,
                    image_span=t.node_span(image_node) if isinstance(image_node, ScalarNode) else None,
                    run_image=image, args=word_texts(args_node, split_value(args_node)),
                    args_span=t.node_span(args_node) if args_node is not None else None,
                    env=[e for e in k8s_env(t, get(main, "env")) if e.name not in ENV_ARG_CARRIERS],
                    hardware=hardware_here(main), version_hints=image_version(t, image, image_node, False),
                    partial_layout=("KServe splits the launch over leader and worker pods (spec.worker)"
                                    if get(part, "worker") is not None else None))
    t.out.launches.append(Launch(
        path=t.path, entry=f"kserve:{KIND}", style="config", span=span, keyed=keyed,
        tokens=[tok for tok, _h in words], env=box.env, version_hints=box.version_hints, hardware=box.hardware,
        delete_tokens=make_deleter(t, {id(tok): h for tok, h in words}) if words else None, context=ctx,
        partial_layout=box.partial_layout, container=box,
    ))
    t.consumed.add(id(main))
    # the worker pods' containers run the controller's command for the same launch, not their own
    t.consumed.update(id(c) for c in seq(get(get(part, "worker"), "containers")) if get(c, "command") is None)
