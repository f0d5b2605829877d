"""How vLLM's argparse actions read the items of its adapter options, per release.

``--lora-modules`` (``LoRAParserAction``, ``vllm/entrypoints/openai/cli_args.py``, from 0.30.0
``vllm/entrypoints/common/cli_args.py``) and ``--prompt-adapters`` (``PromptAdapterParserAction``,
0.5.2-0.9.2) turn each item into a ``LoRAModulePath`` / ``PromptAdapterPath`` dataclass while the
command line is parsed, so a malformed item stops the launch (``parser.error``, or the
``ValueError`` of ``name, path = item.split("=")``). Read from each release's sdist and checked
against the real parsers (``tools/crosscheck/difftest.py``):

* up to 0.6.1.post2 every item is ``name=path``, split on every ``=`` (exactly one);
* from 0.6.2 the empty item is skipped, an item with a ``=`` and no ``,`` is ``name=path`` (split
  on every ``=`` until 0.30.0, on the first one from then on), and any other item is a JSON object
  whose keys are ``LoRAModulePath``'s fields: ``name`` and ``path`` required, ``base_model_name``
  (0.6.2), ``is_3d_lora_weight`` (0.22.0) optional;
* ``--prompt-adapters`` items are always ``name=path`` with exactly one ``=``.
"""

from __future__ import annotations

from typing import Optional

from ..record import lazy_json as json  # (json.loads without the json package: record.json_loads)
from ..surface.version import Version

_LORA_JSON = Version("0.6.2")
_LORA_SPLIT_ONCE = Version("0.30.0")
_LORA_FIELDS = ((Version("0.6.2"), ("name", "path", "base_model_name")),
                (Version("0.22.0"), ("name", "path", "base_model_name", "is_3d_lora_weight")))
_LORA_REQUIRED = ("name", "path")


def _lora_fields(version: Version) -> tuple[str, ...]:
    fields: tuple[str, ...] = ()
    for first, names in _LORA_FIELDS:
        if version >= first:
            fields = names
    return fields


def lora_item_problem(version: Version, written: str, item: str) -> Optional[str]:
    """What the release's ``LoRAParserAction`` refuses in one item of ``--lora-modules``."""
    if version < _LORA_JSON:
        if item.count("=") != 1:
            return f"`{item}` for `{written}` must be `name=path` at vLLM {version}"
        return None
    if item == "":
        return None
    if "=" in item and "," not in item:
        if item.count("=") > 1 and version < _LORA_SPLIT_ONCE:
            return f"`{item}` for `{written}` has more than one `=`; vLLM {version} reads `name=path`"
        return None
    try:
        parsed = json.loads(item)
    except ValueError:
        return f"`{item}` for `{written}` is neither `name=path` nor a JSON object"
    if not isinstance(parsed, dict):
        return f"`{item}` for `{written}` must be `name=path` or a JSON object"
    known = _lora_fields(version)
    unknown = [k for k in parsed if k not in known]
    if unknown:
        return (f"{', '.join(f'`{k}`' for k in unknown)} in `{written}` {'is not a field' if len(unknown) == 1 else 'are not fields'}"
                f" vLLM {version} knows (it takes {', '.join(known)})")
    missing = [k for k in _LORA_REQUIRED if k not in parsed]
    if missing:
        return f"an item of `{written}` lacks {' and '.join(f'`{k}`' for k in missing)}, which vLLM {version} requires"
    return None


def prompt_adapter_item_problem(version: Version, written: str, item: str) -> Optional[str]:
    """What ``PromptAdapterParserAction`` refuses in one item of ``--prompt-adapters``."""
    if item.count("=") != 1:
        return f"`{item}` for `{written}` must be `name=path` at vLLM {version}"
    return None
