"""vLLM recipes' model specs (vllm-project/recipes ``models/<org>/<name>.yaml``): ``model.model_id``
with ``base_args``/``base_env``, and the words and environment that each variant
(``variants.<name>.extra_args``/``extra_env``, its own ``model_id``), feature
(``features.<name>.args``) and hardware override (``hardware_overrides.<name>``) adds to the
``vllm serve`` command the recipe site composes. Each part is its own launch of the words it
adds, so a word is checked once; an item holding an option and its value (``"--max-model-len
auto"``) is its words, with no deletion offered. A vLLM-Omni recipe (a top-level ``omni`` key, or
``--omni`` among the base arguments) starts another program and is not read; the ``guide``
(Markdown) is read as any string.
"""

from __future__ import annotations

from vllm_lint.frontends.yaml.env import compose_env
from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode
from vllm_lint.frontends.yaml.nodes import get, seq, text
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.launch import Hardware, Span

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any

# the parts that add words: (section, key of the words, key of the environment)
_PARTS = (("variants", "extra_args", "extra_env"), ("features", "args", None),
          ("hardware_overrides", "extra_args", "extra_env"))


def is_recipe(top: dict[str, Any]) -> bool:
    """Whether a document's top-level keys are a recipe model spec's."""
    model = top.get("model")
    return isinstance(model, MappingNode) and text(get(model, "model_id")) is not None and (
        "variants" in top or "features" in top or "guide" in top)


def read(t: YamlText, top: dict[str, Any]) -> None:
    """The launches of a recipe model spec (its top-level keys ``top``)."""
    model = top["model"]
    base_args = get(model, "base_args")
    if "omni" in top or any(text(a) == "--omni" for a in seq(base_args)):
        return  # vLLM-Omni's server, with options of its own
    model_id = text(get(model, "model_id")) or ""
    _launch(t, model, base_args, get(model, "base_env"), model_id, "base")
    for section, args_key, env_key in _PARTS:
        parts = top.get(section)
        if not isinstance(parts, MappingNode):
            continue
        for k, part in parts.value:
            if isinstance(part, MappingNode):
                _launch(t, part, get(part, args_key), get(part, env_key) if env_key else None,
                        text(get(part, "model_id")) or model_id, f"{section}.{text(k)}")


def _words(t: YamlText, args: Any) -> list:
    """(token, deletion handle) of an argument list: an item, or the words of an item that holds
    ``"--option value"`` (no deletion there: see the module)."""
    out: list = []
    for i, item in enumerate(seq(args)):
        if isinstance(item, ScalarNode) and item.value.startswith("-") and len(item.value.split()) > 1:
            out.extend((tok, ("joined",)) for tok, _h in t.string_words(item))
        else:
            out.append((t.scalar_token(item), ("seq", args, i, item)))
    return out


def _launch(t: YamlText, node: Any, args: Any, env_node: Any, model_id: str, part: str) -> None:
    words = _words(t, args)
    env = compose_env(t, env_node) if isinstance(env_node, MappingNode) else []
    if not words and not env:
        return
    t.argv_launch("recipe", words, t.content_span(node) or Span(0, 0), env, [], Hardware(),
                  {"model": model_id, "args_only": True})
