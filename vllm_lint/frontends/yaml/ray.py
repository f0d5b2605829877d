"""Ray: a RayService's ``serveConfigV2`` is YAML inside a string, walked in turn and mapped
through the outer scalar where 1:1; ``ray.serve.llm`` configs' ``llm_configs[].engine_kwargs``
are a ``style="kwargs"`` launch (``accelerator_type`` -> GPU product,
``model_loading_config.model_source``/``model_id`` -> model)."""

from __future__ import annotations

from vllm_lint.frontends.yaml.hardware import hw_merge
from vllm_lint.frontends.yaml.loader import MappingNode
from vllm_lint.frontends.yaml.nodes import descendants, get, text
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.launch import Hardware, Launch, ParseError, Span

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable

def serve_config(t: YamlText, node: Any, hw: Hardware,
                 walk_document: Callable[[YamlText, Any], None]) -> None:
    """The launches of a ``serveConfigV2`` string ``node``, each document read by
    ``walk_document``."""
    t.consumed.add(id(node))
    m = t.smap(node)
    inner = YamlText(m.text, t.path, t.out, outer=m)
    inner.root_data = t.root_data
    try:
        docs = inner.parse()
    except ParseError:
        return
    start = len(t.out.launches)
    for d in docs:
        walk_document(inner, d)
    inner.out = None  # type: ignore[assignment]  # see extract: no cycle through the deleters
    for la in t.out.launches[start:]:
        la.hardware = hw_merge(hw, la.hardware)


# the inference engines a per-engine block of options names (verl's rollout config)
_ENGINE_NAMES = frozenset({"vllm", "sglang", "trtllm", "tensorrt_llm", "hf", "lmdeploy", "tgi", "llamacpp", "mlc"})


def serve_llm(t: YamlText, root: Any, hw: Hardware) -> None:
    """ray.serve.llm configs: llm_configs[].engine_kwargs."""
    for n in descendants(root):
        ek = get(n, "engine_kwargs") if isinstance(n, MappingNode) else None
        if not isinstance(ek, MappingNode):
            continue
        if ek.value and all(isinstance(v, MappingNode) and text(k) in _ENGINE_NAMES for k, v in ek.value):
            # one block per inference engine (verl's rollout: `engine_kwargs: {vllm: {}, sglang: {}}`):
            # vLLM's is the `vllm` one; the others are other engines' options
            t.consumed.add(id(ek))
            ek = get(ek, "vllm")
            if not isinstance(ek, MappingNode) or not ek.value:
                continue
        elif not ek.value and get(n, "model_loading_config") is None:
            continue  # (an empty placeholder outside a Ray LLM config launches nothing)
        hw2 = Hardware(gpu_product=text(get(n, "accelerator_type")))
        keyed = t.keyed_args(ek, style_of=lambda k: "snake")
        mlc = get(n, "model_loading_config")
        mid = text(get(mlc, "model_source")) or text(get(mlc, "model_id"))
        launch = Launch(path=t.path, entry="ray.serve.llm", style="kwargs",
                        span=t.content_span(ek) or Span(0, 0), keyed=keyed,
                        hardware=hw_merge(hw, hw2) if hw2.gpu_product else hw, model=mid or None)
        t.out.launches.append(launch)
        t.consumed.add(id(ek))  # (not read again as another tool's block of options)
