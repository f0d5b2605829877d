"""A container whose command is a script the same folder's manifests hold (issue 27):
``command: ["/scripts/startup.sh"]`` with vLLM's options in ``args``, where a ``ConfigMap`` of a
file beside it (a chart's other template, a manifest of the same folder) has the script under that
name in its ``data`` and the script starts vLLM with its arguments (``exec vllm serve
--model=... "$@"``): the container's ``args`` are vLLM's words. The ConfigMap is matched by the
script's file name (its mount path and the ConfigMap's name are often templated); a chart's
template is read as the chart renders it (its values decide its branches). Each file read is an
input of the analysis (:func:`vllm_lint.inputs.read_other`).
"""

from __future__ import annotations

import os
import posixpath
from typing import Any, Optional

_MAX_FILES = 64
_MAX_BYTES = 1024 * 1024
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ash"})


def script_of_command(command: list[str]) -> Optional[str]:
    """The script a container's command runs (``["/scripts/start.sh"]``, ``["bash",
    "/scripts/start.sh"]``), or None."""
    if len(command) == 1:
        script = command[0]
    elif len(command) == 2 and command[0].rsplit("/", 1)[-1] in _SHELLS and not command[1].startswith("-"):
        script = command[1]
    else:
        return None
    if not script or any(c in script for c in "${ ") or not ("/" in script or script.endswith((".sh", ".bash"))):
        return None  # (a program on the PATH is no script of the folder's)
    return script


def configmap_script_entry(path: str, script: str, values: Optional[dict]) -> Optional[tuple[str, list[str], str]]:
    """``(vLLM's entry, the words the script gives vLLM itself, the file holding it)`` when a
    ConfigMap in a YAML file of ``path``'s folder (``path`` itself included) holds ``script``'s
    file name as a ``data`` key whose text starts vLLM with the script's arguments; None otherwise."""
    from vllm_lint import inputs
    from vllm_lint.frontends.shell import script_passes_args
    from vllm_lint.frontends.yaml.loader import ParseError, compose, prepare

    name = posixpath.basename(script)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        files = sorted(n for n in os.listdir(folder) if n.endswith((".yaml", ".yml")))[:_MAX_FILES]
    except OSError:
        return None
    needle = name.encode()
    for file in files:
        raw = inputs.read_other(os.path.join(folder, file), _MAX_BYTES)
        if raw is None or b"ConfigMap" not in raw or needle not in raw or b"vllm" not in raw:
            continue
        if values is None and b"{{" in raw:  # (a chart's template: its values decide its branches)
            from vllm_lint.frontends.yaml.chart_values import chart_values

            values = chart_values(os.path.join(folder, file))
        try:
            filled, _regions = prepare(raw, values)
            docs, _pos = compose(filled)
        except ParseError:
            continue
        for doc in docs:
            body = _data_entry(doc, name)
            if body is None:
                continue
            passed = script_passes_args(body.encode("utf-8", "surrogatepass"), path)
            if passed is not None:
                return passed[0], passed[1], file
    return None


def _data_entry(doc: Any, name: str) -> Optional[str]:
    from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode
    from vllm_lint.frontends.yaml.nodes import get, text

    if not isinstance(doc, MappingNode) or text(get(doc, "kind")) != "ConfigMap":
        return None
    data = get(doc, "data")
    if not isinstance(data, MappingNode):
        return None
    for k, v in data.value:
        if isinstance(k, ScalarNode) and k.value == name and isinstance(v, ScalarNode):
            return v.value
    return None
