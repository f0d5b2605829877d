"""A chart's values that configure the vLLM container, known by their content: a mapping with
arguments under a key the ``values`` rows of :data:`vllm_lint.container.PLATFORMS` match
(``extraArgs``, ``vllmArgs``, ``serverArgs``, ``args``, ...), whose value reads as arguments, run
by a vLLM image set there or in an enclosing mapping (a values file's ``image:`` above a
component's ``vllm:`` block). The file's name and the chart's other key names do not matter: a
chart's values file, an override file given to ``helm install -f`` (named as its author likes) and
a values block anywhere read alike.

The arguments are a list or a string of words (``["--max-model-len", "4096"]``), appended to the
image's entrypoint, or a mapping of option names (``max-model-len: 4096``, ``--enforce-eager:
true``), read as a ``--config`` file's keys are (a boolean sets a switch), since how a chart spells
a mapping on the command line is its template's affair.
"""

from __future__ import annotations

from vllm_lint.container import Platform
from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode, SequenceNode
from vllm_lint.frontends.yaml.nodes import NULL
from vllm_lint.record import lazy_re, screened_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

# an option name as a chart's mapping writes it: `max-model-len`, `max_model_len`, `--enforce-eager`
OPTION_KEY = lazy_re(r"^(?:--)?[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$")
_MAX_KEYS = 200  # (a mapping this large is no list of options)
# a values row's marker -> its expression, screened: a key without the text every match holds
# (`arg`) is answered without compiling it
_MARKERS: dict[str, Any] = {}


def _marker(row: Platform) -> Any:
    pattern = _MARKERS.get(row.marker or "")
    if pattern is None:
        pattern = _MARKERS[row.marker or ""] = screened_re(row.marker or "")
    return pattern


def args_key(row: Platform, km: dict[str, Any]) -> Optional[str]:
    """The key of a mapping (its values by key, ``km``) that holds arguments for a ``values`` row
    (``row.marker`` matches its name in full, its value reads as arguments), or None."""
    for key, value in km.items():
        if _marker(row).fullmatch(key) and argument_like(value):
            return key
    return None


def default_args_key(row: Platform, km: dict[str, Any], holder_km: dict[str, Any]) -> Optional[str]:
    """A chart's own ``values.yaml`` keeps its arguments empty by default (``extraArgs: []``, set
    by an override file) and the model beside the image: the key of those empty arguments when the
    mapping (``km``) or the one that sets the vLLM image (``holder_km``) names a model at one of
    the row's ``model`` paths, else None. The chart's template runs the image with the model."""
    key = next((k for k, v in km.items() if _marker(row).fullmatch(k) and empty(v)), None)
    if key is None:
        return None
    for path in row.model:
        for mapping in (km, holder_km):
            node = mapping.get(path[0])
            for part in path[1:]:
                node = next((v for k, v in node.value if isinstance(k, ScalarNode) and k.value == part), None) \
                    if isinstance(node, MappingNode) else None
            if isinstance(node, ScalarNode) and node.tag != NULL and node.value.strip() \
                    and not node.value.lstrip().startswith("-"):
                return key
    return None


def empty(node: Any) -> bool:
    """Whether a value holds nothing: ``[]``, ``{}``, ``""`` or null."""
    if isinstance(node, (SequenceNode, MappingNode)):
        return not node.value
    return isinstance(node, ScalarNode) and (node.tag == NULL or not node.value.strip())


def argument_like(node: Any) -> bool:
    """Whether a value reads as a command line's arguments: words of which the first option-like
    one starts with ``-`` (a list of strings, or one string), or a mapping whose keys are all
    option names, one at least written ``--name`` or with a separator (``max-model-len``)."""
    if isinstance(node, SequenceNode):
        words = [item.value for item in node.value if isinstance(item, ScalarNode)]
        return len(words) == len(node.value) and any(w.startswith("--") for w in words)
    if isinstance(node, ScalarNode):
        return node.tag != NULL and node.value.lstrip().startswith("--")
    if isinstance(node, MappingNode) and 0 < len(node.value) <= _MAX_KEYS:
        keys = [k.value for k, _v in node.value if isinstance(k, ScalarNode)]
        return (len(keys) == len(node.value) and all(OPTION_KEY.match(k) for k in keys)
                and any(k.startswith("--") or "-" in k or "_" in k for k in keys))
    return False


def read_already(t: Any, node: Any) -> bool:
    """Whether an ecosystem's own reader took these arguments (production-stack's ``extraArgs``)."""
    return id(node) in t.consumed or (isinstance(node, SequenceNode)
                                      and any(id(item) in t.consumed for item in node.value))


def runs_vllm(image: Optional[str]) -> bool:
    """Whether ``image`` is vLLM's, whose entrypoint takes the arguments (an enclosing mapping's
    image that the values below it inherit)."""
    from vllm_lint.frontends.commands import image_starts_vllm

    return bool(image) and image_starts_vllm(image)  # type: ignore[arg-type]


def holds_vllm(image: Optional[str]) -> bool:
    """Whether ``image`` holds vLLM (:func:`~vllm_lint.images.image_is_vllm`), whatever its
    entrypoint starts: the image another tool's block of vLLM settings runs vLLM in."""
    from vllm_lint.frontends.commands import image_is_vllm

    return bool(image) and image_is_vllm(image)  # type: ignore[arg-type]


def key_style(key: str) -> str:
    """How a mapping's option key is spelt (:class:`vllm_lint.launch.KeyedArg`)."""
    if key.startswith("-"):
        return "cli"
    return "dash" if "-" in key else "snake"
