"""cloud-init user data (``#cloud-config``): a ``runcmd`` / ``bootcmd`` item given as a list is
an argv (cloud-init runs it without a shell); an item given as a string, and the content of the
scripts ``write_files`` writes, are shell, read as every leftover string is (``walk._strings``)."""

from __future__ import annotations

from vllm_lint.frontends.yaml.loader import ScalarNode, SequenceNode
from vllm_lint.frontends.yaml.nodes import seq
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.launch import Hardware

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any

COMMAND_KEYS = ("runcmd", "bootcmd")


def is_cloud_config(top: dict[str, Any]) -> bool:
    """Whether a document's top-level keys are cloud-init's (a command list)."""
    return any(isinstance(top.get(k), SequenceNode) for k in COMMAND_KEYS)


def read(t: YamlText, top: dict[str, Any]) -> None:
    """The argv items of the command lists that start vLLM: their launches, each word where it
    is written (a fix removes list items)."""
    from vllm_lint.frontends.commands import find_vllm_command

    for key in COMMAND_KEYS:
        for item in seq(top.get(key)):
            if not isinstance(item, SequenceNode) or not all(isinstance(x, ScalarNode) for x in item.value):
                continue
            words = t.words_from(item)
            found = find_vllm_command([tok.text for tok, _h in words])
            span = t.node_span(item)
            if found is None or span is None:
                continue
            for x in item.value:
                t.consumed.add(id(x))
            t.argv_launch(found.entry, words[found.args_start:], span, [], [], Hardware(), {"cloud_init": key},
                          wrapped_env=[(words[k], name, value) for k, name, value in found.env])
