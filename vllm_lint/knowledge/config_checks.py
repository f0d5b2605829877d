"""What vLLM's JSON config classes check in their own validators, beyond the types of their fields.

The flag database holds each config class's fields, types and ``Literal`` choices
(``json_configs``). A few classes also refuse combinations or values in ``__post_init__`` /
``model_post_init``, which runs when the parser's type function builds the class from the
option's JSON (or, for a pydantic model, when ``from_cli`` validates it): the release refuses the
launch before the engine starts. Those checks are code, not annotations, so they are kept here,
per release range, read from each release's sdist (the source path is named per entry), and
verified with the real parsers (``tools/crosscheck/difftest.py``).

A range's ``last`` of None means: still so in the newest release checked (0.33.0).
"""

from __future__ import annotations

from ..record import Record
from ..surface.version import Version

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional


class Requires(Record):
    """Setting ``key`` of the option's object (to anything but null) requires ``needs`` too."""

    __slots__ = ("dest", "key", "needs", "first", "last", "source")

    def __init__(self, dest: str, key: str, needs: str, first: str, last: Optional[str], source: str) -> None:
        self.dest = dest
        self.key = key
        self.needs = needs
        self.first = first
        self.last = last
        self.source = source


class OneOf(Record):
    """``key`` of the option's object, when set (not null), must be one of ``values``."""

    __slots__ = ("dest", "key", "values", "first", "last", "source")

    def __init__(self, dest: str, key: str, values: tuple[str, ...], first: str, last: Optional[str],
                 source: str) -> None:
        self.dest = dest
        self.key = key
        self.values = values
        self.first = first
        self.last = last
        self.source = source


class OnlyWith(Record):
    """``key`` of the option's object set true (pydantic's lax booleans) requires ``other`` to be one
    of ``values`` (``default`` where the object does not give it)."""

    __slots__ = ("dest", "key", "other", "values", "default", "first", "last", "source")

    def __init__(self, dest: str, key: str, other: str, values: tuple[str, ...], default: str, first: str,
                 last: Optional[str], source: str) -> None:
        self.dest = dest
        self.key = key
        self.other = other
        self.values = values
        self.default = default
        self.first = first
        self.last = last
        self.source = source


_TRUE = {"true", "1", "yes", "on", "t", "y"}


def _set_true(value: Any) -> bool:
    """pydantic's lax ``bool`` reads the value as True (only what it certainly does)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value == 1
    return isinstance(value, str) and value.strip().lower() in _TRUE


_KV = "KVTransferConfig in vllm/config.py (0.6.5-0.9.2), vllm/config/kv_transfer.py (0.10.0-)"
_EC = "ECTransferConfig in vllm/config/ec_transfer.py"
_SO = "StructuredOutputsConfig in vllm/config/structured_outputs.py"

#: Where a field is a ``Literal`` the database holds its choices (``choices_enforced`` where pydantic
#: enforces them, from 0.9.1), so only the value lists written out in the validators are here.
CHECKS: tuple[Any, ...] = (
    Requires("kv_transfer_config", "kv_connector", "kv_role", "0.6.5", None, _KV),
    # a plain `str` field checked against a list in model_post_init (0.6.5-0.8.5.post1), against
    # get_args(KVRole) in the plain dataclass of 0.9.0; a Literal pydantic enforces from 0.9.1
    OneOf("kv_transfer_config", "kv_role", ("kv_producer", "kv_consumer", "kv_both"), "0.6.5", "0.9.0.1", _KV),
    # model_post_init's own list of supported connectors; 0.7.0 dropped it
    OneOf("kv_transfer_config", "kv_connector", ("PyNcclConnector", "MooncakeConnector"), "0.6.5", "0.6.6.post1",
          "KVTransferConfig.model_post_init in vllm/config.py"),
    Requires("ec_transfer_config", "ec_connector", "ec_role", "0.11.1", None, _EC),
    # __post_init__ (0.11.0), a model_validator(mode="after") from 0.11.1; backend defaults to "auto"
    OnlyWith("structured_outputs_config", "disable_any_whitespace", "backend", ("xgrammar", "guidance"), "auto",
             "0.11.0", None, _SO),
    OnlyWith("structured_outputs_config", "disable_additional_properties", "backend", ("guidance",), "auto",
             "0.11.0", None, _SO),
)


def _applies(check: Any, version: Version) -> bool:
    return Version(check.first) <= version and (check.last is None or version <= Version(check.last))


def checks_for(dest: str, version: Version) -> list[Any]:
    """The validator checks of the config class behind option ``dest`` at ``version``."""
    return [c for c in CHECKS if c.dest == dest and _applies(c, version)]


def object_problem(dest: str, version: Version, obj: dict[str, Any]) -> Optional[Any]:
    """The first check that the object ``obj`` (the option's JSON object as the class receives
    it) fails at ``version``, or None when it passes them all. Values that are not JSON strings
    are left to the type checks of the fields."""
    for c in checks_for(dest, version):
        value = obj.get(c.key)
        if value is None:
            continue
        if isinstance(c, Requires) and obj.get(c.needs) is None:
            return c
        if isinstance(c, OneOf) and isinstance(value, str) and value not in c.values:
            return c
        if isinstance(c, OnlyWith) and _set_true(value):
            other = obj.get(c.other, c.default)
            if isinstance(other, str) and other not in c.values:
                return c
    return None


# --------------------------------------------------------------------------- scraped tests

_ORDER = {"<": lambda x, y: x < y, "<=": lambda x, y: x <= y, ">": lambda x, y: x > y,
          ">=": lambda x, y: x >= y, "==": lambda x, y: x == y, "!=": lambda x, y: x != y}


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def holds(test: dict, v: Any, other: Any, unknown: Any) -> Any:
    """Whether one scraped test (``serve_checks`` / a config class's ``checks``, flag_db/README.md)
    holds for value ``v`` (``other``: the second value's, for ``dest2``): True, False or
    ``unknown`` (returned too when either value is ``unknown``)."""
    t = test["test"]
    if v is unknown or other is unknown:
        return unknown
    if t in ("set", "unset"):
        return bool(v) == (t == "set")
    if t in ("none", "not_none"):
        return (v is None) == (t == "none")
    if t in ("in", "not_in"):
        return (v in test["values"]) == (t == "in")
    w = other if "dest2" in test else test.get("value")
    if t in ("==", "!=") and (v is None or w is None or type(v) is type(w) or _number(v) and _number(w)):
        return _ORDER[t](v, w)
    if _number(v) and _number(w) or isinstance(v, str) and isinstance(w, str):
        return _ORDER[t](v, w)
    return unknown  # Python would raise comparing them: a refusal of another kind, not this check's
