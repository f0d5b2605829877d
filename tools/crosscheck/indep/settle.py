"""Which options a start-up failure is about, written for the independent tester (pure: no vLLM).

``oracle.py``'s ``start`` op runs model-free steps of a release's own start-up on a namespace the
parser accepted and hands each failure here as data: the step, its exception (type name,
message, pydantic's error list when it is a ``ValidationError``), whether the step got stand-ins
(``None`` for a model config it cannot build), and what the line gave (``given``: dest ->
option strings, and the value's shape: a mapping with its keys, a string, or another non-object).

A failure is *about* an option only for reasons that do not depend on a model or this machine:

* structural (any step): a pydantic error of the one value a ``hand_over:<field>`` step
  validates (the config class's annotation of that field, constraints included); a pydantic error located at a key of the option's own mapping (or, for
  a step building a class from several options, at the option's dest) whose type is not
  ``missing``; an unexpected keyword argument that is a key the line gave; a non-object handed
  to a step that needs a mapping (``**`` of a non-mapping, ``.update`` / ``.items`` of one, a
  pydantic object-type error at the root); a JSON string that does not decode;
* named (only steps run without stand-ins): the message holds one of the option's strings
  (``--speculative-config``, ``-sc``) or its dest as a word, quotes a key the line gave, or
  quotes a string value the line gave the option (``Non-integer device ID 'auto'`` of
  ``--device-ids auto``), unless that value is a GPU UUID (``GPU-...``, ``MIG-...``), which a
  GPU machine may resolve.

Failures of missing files, modules, devices or the network, and time-outs, are about nothing.
The oracle then re-runs the step with the option reset to its default: only if that passes is the
refusal certain.
"""

from __future__ import annotations

import re
from typing import Any, Optional

#: exception types and message fragments of this machine, not of the line
ENV_TYPES = ("ModuleNotFoundError", "ImportError", "FileNotFoundError", "OSError", "ConnectionError",
             "ConnectionRefusedError", "TimeoutError", "PermissionError", "socket.gaierror", "gaierror")
ENV_TEXT = ("no such file", "not installed", "no module named", "is not available", "does not exist",
            "network", "connection", "cuda", "timed out", "out of memory", "permission denied",
            "huggingface", "hf_hub", "repository not found", "not found in cache", "failed to import")
NON_OBJECT_TEXT = ("argument after ** must be a mapping", "object has no attribute 'update'",
                   "object has no attribute 'items'", "object has no attribute 'keys'",
                   "object has no attribute 'get'", "object is not a mapping")
NON_OBJECT_PYDANTIC = ("dataclass_type", "dataclass_exact_type", "model_type", "model_attributes_type",
                       "dict_type", "mapping_type", "dataclass_args_type")
#: a string value a GPU machine may resolve (an NVML UUID) is never "about" its option from here
DEVICE_UUID = ("GPU-", "MIG-")
UNEXPECTED = re.compile(r"unexpected keyword argument '([^']+)'")


def environmental(exc_type: str, message: str) -> bool:
    low = (message or "").lower()
    return exc_type in ENV_TYPES or any(t in low for t in ENV_TEXT)


def _word(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def about(failure: dict[str, Any], given: dict[str, dict[str, Any]]) -> list[tuple[str, str]]:
    """``[(dest, why), ...]``: the options the line gave that this failure is about.

    ``failure``: ``{"step", "field", "type", "message", "errors", "stand_ins"}`` (``field``: the
    option the step hands over, ``None`` for a step reading many; ``errors``: pydantic's list,
    each ``{"type", "loc"}``, or ``None``). ``given[dest]``: ``{"strings", "shape": "mapping" |
    "str" | "other", "keys": [...]}``."""
    etype, msg = failure.get("type") or "", failure.get("message") or ""
    # a value of the line quoted back is the line's, not this machine's (`--device-ids cuda`)
    own_words = {w for g in given.values() for w in g.get("words") or ()}
    if environmental(etype, re.sub(r"""(['"])(.*?)\1""", lambda m: "" if m.group(2) in own_words else m.group(0), msg)):
        return []
    field = failure.get("field")
    own = given.get(field) if field else None
    out: dict[str, str] = {}

    def add(dest: str, why: str) -> None:
        if why not in out.get(dest, "").split("; "):
            out[dest] = f"{out[dest]}; {why}" if dest in out else why

    def holders(key: str) -> list[str]:
        if own is not None:
            return [field] if own["shape"] == "mapping" and key in own["keys"] else []
        return [d for d, g in given.items() if g["shape"] == "mapping" and key in g["keys"]]

    whole = str(failure.get("step") or "").startswith("hand_over:") and own is not None
    for err in failure.get("errors") or []:
        loc, kind = list(err.get("loc") or []), err.get("type") or ""
        if kind == "missing" or environmental("", err.get("msg") or ""):
            continue
        if whole:  # VllmConfig's validation of this one value
            add(field, f"pydantic {kind} of the value a config class is given")
            continue
        if not loc:
            if own is not None and own["shape"] != "mapping" and kind in NON_OBJECT_PYDANTIC:
                add(field, f"non-object ({kind})")
            continue
        head = str(loc[0])
        for d in holders(head):
            add(d, f"pydantic {kind} at key {head!r}")
        if own is None or own["shape"] != "mapping":
            if head in given and head != field:
                add(head, f"pydantic {kind} at {head!r}")
            elif head == field and own is not None:
                add(field, f"pydantic {kind} at {head!r}")
    m = UNEXPECTED.search(msg)
    if m:
        for d in holders(m.group(1)):
            add(d, f"unexpected key {m.group(1)!r}")
    if own is not None and own["shape"] != "mapping" and etype in ("TypeError", "AttributeError") \
            and any(t in msg for t in NON_OBJECT_TEXT):
        add(field, "non-object handed over as a mapping")
    if own is not None and own["shape"] == "str" and etype == "JSONDecodeError":
        add(field, "string that is not JSON")
    if not failure.get("stand_ins"):
        for d, g in given.items():
            if any(_word(msg, s) for s in g["strings"]) or ("_" in d and _word(msg, d)):
                add(d, "message names the option")
            elif any(q + w + q in msg for w in g.get("words") or () for q in ("'", '"')
                     if not w.upper().startswith(DEVICE_UUID)):
                add(d, "message quotes its value")
            elif g["shape"] == "mapping" and (own is None or d == field):
                for k in g["keys"]:
                    if any(q + k + q in msg for q in ("'", '"', "`")):
                        add(d, f"message quotes key {k!r}")
                        break
    return sorted(out.items())


def shape(value: Any) -> dict[str, Any]:
    """The shape of a parsed value (``given``'s ``shape`` / ``keys``)."""
    if isinstance(value, dict):
        return {"shape": "mapping", "keys": sorted(str(k) for k in value)}
    if isinstance(value, str):
        return {"shape": "str", "keys": [], "words": [value] if value else []}
    if isinstance(value, (list, tuple)) and value and all(isinstance(w, (str, int)) for w in value):
        return {"shape": "other", "keys": [], "words": [w for w in value if isinstance(w, str) and w]}
    if hasattr(value, "__dataclass_fields__") or hasattr(value, "model_fields"):
        return {"shape": "object", "keys": []}
    return {"shape": "other", "keys": []}


def certain_names(certain: list[dict[str, Any]]) -> set[str]:
    """The option strings of the certain refusals and the option words of the line that set
    them (``-O.level=3`` -> ``-o.level``), as ``verdict`` compares names."""
    out = set()
    for c in certain:
        for s in [*(c.get("strings") or []), *(c.get("words") or [])]:
            out.add(s.split("=", 1)[0].replace("_", "-").lower())
    return out


def settles(lint_errors: list[dict[str, Any]], certain: list[dict[str, Any]],
            names_culprit: Any) -> Optional[bool]:
    """True when every lint error names an option start-up refuses for certain (the line is
    "post-parse: both refuse"); None when start-up refused nothing for certain."""
    if not certain:
        return None
    names = certain_names(certain)
    return bool(lint_errors) and all(names_culprit([e], names) for e in lint_errors)
