"""start_fields over synthetic sources: what pydantic checks where start-up hands an option's value
unchanged to a config class (bounds, string Literal choices), and the cases it must leave out."""

from __future__ import annotations

import textwrap

from vllm_lint.scrape.extract import _Extractor
from vllm_lint.scrape.pyresolve import Project
from vllm_lint.scrape.tree import DictTree

CONFIG = """
from typing import Literal
from pydantic import Field, field_validator
from pydantic.dataclasses import dataclass


@dataclass
class ParallelConfig:
    dcp: int = Field(default=1, ge=1)
    backend: Literal["ray", "mp"] = "mp"
    checked: int = Field(default=1, ge=1)
    free: int = 1

    @field_validator("checked", mode="before")
    @classmethod
    def _fix(cls, value):
        return value


@dataclass
class LoRAConfig:
    max_loras: int = Field(default=1, ge=1)
"""

ENGINE = """
from vllm.config import LoRAConfig, ParallelConfig


class EngineArgs:
    dcp: int = 1
    backend: str = "mp"
    checked: int = 1
    free: int = 1
    rewritten: int = 1
    max_loras: int = 1
    enable_lora: bool = False

    def __post_init__(self):
        self.backend = self.backend

    def create_engine_config(self):
        parallel = ParallelConfig(dcp=self.dcp, backend=self.backend, checked=self.checked, free=self.free)
        lora = LoRAConfig(max_loras=self.max_loras) if self.enable_lora else None
        return parallel, lora
"""

OPTIONS = [{"name": f"--{d.replace('_', '-')}", "dest": d, "default_computed": False}
           for d in ("dcp", "backend", "checked", "free", "max_loras")]


def start_fields(config: str = CONFIG, engine: str = ENGINE) -> dict:
    tree = DictTree({"vllm/__init__.py": b"", "vllm/engine/__init__.py": b"",
                     "vllm/config/__init__.py": textwrap.dedent(config).encode(),
                     "vllm/engine/arg_utils.py": textwrap.dedent(engine).encode()})
    return _Extractor(Project(tree), "0.0.0")._start_fields(OPTIONS)


def test_bounds_of_a_value_handed_over_unchanged_on_every_start():
    got = start_fields()
    # dcp: a bound; backend is reassigned by an EngineArgs method; checked is seen by a before
    # validator first; free has nothing to check; LoRAConfig is built only with enable_lora
    assert got == {"dcp": {"class": "ParallelConfig", "option": "--dcp", "constraints": {"ge": 1}}}


def test_string_literal_choices_pydantic_enforces():
    got = start_fields(engine=ENGINE.replace("        self.backend = self.backend\n", "        pass\n"))
    assert got["backend"] == {"class": "ParallelConfig", "option": "--backend", "choices": ["ray", "mp"]}


def test_a_class_pydantic_does_not_validate_has_no_facts():
    stdlib = CONFIG.replace("from pydantic.dataclasses import dataclass", "from dataclasses import dataclass")
    assert start_fields(config=stdlib) == {}


MAPPING_CONFIG = """
from typing import Any, Protocol, Union
from pydantic import ConfigDict
from pydantic.dataclasses import dataclass


class SupportsHash(Protocol):
    def compute_hash(self) -> str: ...


class SupportsUpper(Protocol):
    def upper(self) -> str: ...


@dataclass(config=ConfigDict(arbitrary_types_allowed=True))
class VllmConfig:
    additional_config: Union[dict, SupportsHash] = None
    plain: dict[str, Any] = None
    stringy: Union[dict, SupportsUpper] = None
    either: Union[dict, str] = None
"""

MAPPING_ENGINE = """
from vllm.config import VllmConfig


class EngineArgs:
    additional_config: dict = None
    plain: dict = None
    stringy: dict = None
    either: dict = None
    backend: str = None

    def create_engine_config(self):
        if self.backend is not None:
            self.additional_config["backend"] = self.backend
        return VllmConfig(additional_config=self.additional_config, plain=self.plain, stringy=self.stringy,
                          either=self.either)
"""


def test_a_mapping_field_given_the_parsers_string():
    """`--additional-config foo`: union_dict_and_str keeps the word as a string, VllmConfig's
    `dict | SupportsHash` refuses it (a string has no compute_hash); an item set on the value
    first fails on a string too, so it does not hide the fact."""
    opts = [{"name": f"--{d.replace('_', '-')}", "dest": d, "default_computed": False, "type": "dict_or_str"}
            for d in ("additional_config", "plain", "stringy", "either")]
    tree = DictTree({"vllm/__init__.py": b"", "vllm/engine/__init__.py": b"",
                     "vllm/config/__init__.py": textwrap.dedent(MAPPING_CONFIG).encode(),
                     "vllm/engine/arg_utils.py": textwrap.dedent(MAPPING_ENGINE).encode()})
    got = _Extractor(Project(tree), "0.0.0")._start_fields(opts)
    mapping = {"class": "VllmConfig", "mapping": True}
    assert got == {"additional_config": {**mapping, "option": "--additional-config"},
                   "plain": {**mapping, "option": "--plain"}}
    # a rebinding (not an item) of the value makes it another value: no fact
    rebinding = MAPPING_ENGINE.replace('self.additional_config["backend"] = self.backend',
                                       'self.additional_config = {"backend": self.backend}')
    tree = DictTree({"vllm/__init__.py": b"", "vllm/engine/__init__.py": b"",
                     "vllm/config/__init__.py": textwrap.dedent(MAPPING_CONFIG).encode(),
                     "vllm/engine/arg_utils.py": textwrap.dedent(rebinding).encode()})
    assert "additional_config" not in _Extractor(Project(tree), "0.0.0")._start_fields(opts)
    # an option whose parser gives JSON only (type json) never hands a string over; the field's
    # type still judges the JSON value it gets (json_type: a number is no object)
    opts[1]["type"] = "json"
    tree = DictTree({"vllm/__init__.py": b"", "vllm/engine/__init__.py": b"",
                     "vllm/config/__init__.py": textwrap.dedent(MAPPING_CONFIG).encode(),
                     "vllm/engine/arg_utils.py": textwrap.dedent(MAPPING_ENGINE).encode()})
    got = _Extractor(Project(tree), "0.0.0")._start_fields(opts)
    assert "mapping" not in got["plain"] and got["plain"]["json_type"] == "dict[str, Any]"


VERSION_CONFIG = """
from packaging.version import parse
from pydantic import field_validator
from pydantic.dataclasses import dataclass


@dataclass
class ObservabilityConfig:
    show_hidden_metrics_for_version: str | None = None
    other: str | None = None

    @field_validator("show_hidden_metrics_for_version")
    @classmethod
    def _validate(cls, value: str | None) -> str | None:
        if value is not None:
            # raises for a string that is no version
            parse(value)
        return value

    @field_validator("other")
    @classmethod
    def _other(cls, value):
        if value is not None:
            len(value)
        return value
"""

VERSION_ENGINE = """
from vllm.config import ObservabilityConfig


class EngineArgs:
    show_hidden_metrics_for_version: str = None
    other: str = None

    def create_engine_config(self):
        return ObservabilityConfig(show_hidden_metrics_for_version=self.show_hidden_metrics_for_version,
                                   other=self.other)
"""


def test_a_field_an_after_validator_parses_as_a_version():
    """0.12+: ObservabilityConfig's after validator calls packaging's parse on the value."""
    opts = [{"name": f"--{d.replace('_', '-')}", "dest": d, "default_computed": False, "type": "str"}
            for d in ("show_hidden_metrics_for_version", "other")]
    tree = DictTree({"vllm/__init__.py": b"", "vllm/engine/__init__.py": b"",
                     "vllm/config/__init__.py": textwrap.dedent(VERSION_CONFIG).encode(),
                     "vllm/engine/arg_utils.py": textwrap.dedent(VERSION_ENGINE).encode()})
    got = _Extractor(Project(tree), "0.0.0")._start_fields(opts)
    assert got == {"show_hidden_metrics_for_version": {
        "class": "ObservabilityConfig", "option": "--show-hidden-metrics-for-version", "version": True}}
    # a validator of another shape (mode="before": it may change the value first) is no fact
    before = VERSION_CONFIG.replace('@field_validator("show_hidden_metrics_for_version")',
                                    '@field_validator("show_hidden_metrics_for_version", mode="before")')
    tree = DictTree({"vllm/__init__.py": b"", "vllm/engine/__init__.py": b"",
                     "vllm/config/__init__.py": textwrap.dedent(before).encode(),
                     "vllm/engine/arg_utils.py": textwrap.dedent(VERSION_ENGINE).encode()})
    assert _Extractor(Project(tree), "0.0.0")._start_fields(opts) == {}


NESTED_CONFIG = """
from typing import Any
from pydantic import ConfigDict, field_validator
from pydantic.dataclasses import dataclass


@dataclass(config=ConfigDict(extra="forbid"))
class QuantSpec:
    weight: str | None = None
    activation: str | None = None


@dataclass
class Loose:
    a: int = 0


@dataclass(config=ConfigDict(extra="forbid"))
class QuantizationConfigArgs:
    linear: QuantSpec | None = None
    loose: Loose | None = None

    @field_validator("linear", mode="before")
    @classmethod
    def _coerce(cls, v: Any) -> Any:
        if not isinstance(v, str):
            return v
        return QuantSpec(weight=v)
"""


def test_the_keys_a_nested_config_class_takes():
    """`--quantization-config.moe.activaiton`: QuantSpec forbids every key but its fields; a
    class that does not forbid extra keys gets no list."""
    tree = DictTree({"vllm/__init__.py": b"", "vllm/config/__init__.py": textwrap.dedent(NESTED_CONFIG).encode()})
    ex = _Extractor(Project(tree), "0.0.0")
    cls = ex._find_config_class("QuantizationConfigArgs")
    fields = ex._class_fields(cls, init_only=True)
    assert fields["linear"]["keys"] == ["activation", "weight"]
    assert fields["linear"]["prevalidated"] == ["str"]  # a string is the validator's; an object is QuantSpec's
    assert "keys" not in fields["loose"]


NAMED_CONFIG = NESTED_CONFIG + """

QUANT_KEY_NAMES: dict[str, object] = {"fp8_per_token": 1, "mxfp8": 2, "nvfp4": 3}
_WEIGHT_QUANT_KEY_NAMES: dict[str, object] = {"mxfp4": 4}
_ONLINE_SHORTHANDS: dict[str, QuantizationConfigArgs] = {
    "fp8_per_tensor": QuantizationConfigArgs(linear=QuantSpec(weight=1)),
    "nvfp4": QuantizationConfigArgs(loose=None),
}
"""


def test_the_names_a_nested_config_field_looks_up():
    """`--quantization-config.linear foo`: the field takes a shorthand that sets it or a name of the
    names table (a shorthand that leaves it unset is refused, even where the table has the name);
    the nested keys take their tables' names (eras.NAME_TABLES)."""
    tree = DictTree({"vllm/__init__.py": b"", "vllm/config/__init__.py": textwrap.dedent(NAMED_CONFIG).encode()})
    ex = _Extractor(Project(tree), "0.0.0")
    fields = ex._class_fields(ex._find_config_class("QuantizationConfigArgs"), init_only=True)
    assert fields["linear"]["names"] == ["fp8_per_tensor", "fp8_per_token", "mxfp8"]
    assert fields["linear"]["key_names"] == {"activation": ["fp8_per_token", "mxfp8", "nvfp4"],
                                             "weight": ["fp8_per_token", "mxfp4", "mxfp8", "nvfp4"]}
    assert "names" not in fields["loose"]


def test_no_names_without_the_tables():
    """A release without the names table (or with one it cannot read plainly) gets no names: silent."""
    tree = DictTree({"vllm/__init__.py": b"", "vllm/config/__init__.py": textwrap.dedent(NESTED_CONFIG).encode()})
    ex = _Extractor(Project(tree), "0.0.0")
    fields = ex._class_fields(ex._find_config_class("QuantizationConfigArgs"), init_only=True)
    assert "names" not in fields["linear"] and "key_names" not in fields["linear"]
    spread = NAMED_CONFIG.replace('{"fp8_per_token": 1,', '{**OTHER, "fp8_per_token": 1,')
    tree = DictTree({"vllm/__init__.py": b"", "vllm/config/__init__.py": textwrap.dedent(spread).encode()})
    ex = _Extractor(Project(tree), "0.0.0")
    assert "names" not in ex._class_fields(ex._find_config_class("QuantizationConfigArgs"), init_only=True)["linear"]
