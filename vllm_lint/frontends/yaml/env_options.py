"""Containers configured by environment variables their entrypoint turns into vLLM's options
(:data:`vllm_lint.container.ENV_OPTIONS`: SageMaker's ``SM_VLLM_*``), in YAML: an environment
mapping (a CloudFormation ``AWS::SageMaker::Model``'s ``PrimaryContainer.Environment``, any mapping
at one of the row's ``env_keys``) holding such a variable is one ``config`` launch of those
variables, in the image its mapping names beside it (``Image``), the block's other variables its
environment."""

from __future__ import annotations

from vllm_lint.container import ENV_OPTIONS, env_keyed, env_launch, env_options
from vllm_lint.frontends.yaml.env import compose_env
from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode
from vllm_lint.frontends.yaml.nodes import text
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.launch import Span

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any

#: the keys that may hold such an environment block
ENV_KEYS = frozenset(k for row in ENV_OPTIONS for k in row.env_keys)


def read(t: YamlText, km: dict[str, Any]) -> None:
    """The launches of the environment blocks of mapping ``km`` (its keys)."""
    for key in ENV_KEYS.intersection(km):
        env = km[key]
        if not isinstance(env, MappingNode) or id(env) in t.consumed:
            continue
        row = next((r for k, _v in env.value for r in (env_options(text(k) or ""),) if r is not None), None)
        if row is None or key not in row.env_keys:
            continue
        keyed = env_keyed(row, t.keyed_args(env, style_of=lambda _k: "env",
                                            keys=lambda k, row=row: env_options(k) is row))
        if not keyed:
            continue
        image_node = next((km[k] for k in row.image_keys if isinstance(km.get(k), ScalarNode)), None)
        image = text(image_node) if image_node is not None else None
        others = [e for e in compose_env(t, env) if env_options(e.name) is None]
        t.out.launches.append(env_launch(row, t.path, t.content_span(env) or Span(0, 0), keyed, others, image=image,
                                         image_span=t.node_span(image_node) if image_node is not None else None))
        t.consumed.add(id(env))
