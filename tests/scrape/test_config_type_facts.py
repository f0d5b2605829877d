"""What a config class's field types and simple validators refuse, read per release (issue 29,
sixth pass): a before validator's string rewrite (``transform``), required fields, an object keyed
by an enum's values (``key_values`` / ``value_names``), nested keys past field validators, checks over
each item of a list (``"each"``) and a list of the fields set off their defaults."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_extract_eras import FIXTURES, SOURCE  # noqa: E402

OLD = '    method: Optional[Literal["ngram", "eagle"]] = None\n'
PYDANTIC = ("from dataclasses import dataclass, field\n",
            "from dataclasses import field\nfrom enum import Enum\nfrom pydantic.dataclasses import dataclass\n")


def spec(extra: str, before: str = "", imports: tuple = PYDANTIC) -> dict:
    files = {"vllm/config.py": [(OLD, OLD + extra)]}
    if imports:
        files["vllm/config.py"].append(imports)
    if before:
        anchor = "@dataclass\nclass SpeculativeConfig:"
        files["vllm/config.py"].append((anchor, before + anchor))
    rec = _extract_multi(files)
    return rec["json_configs"]["speculative_config"]


def _extract_multi(files: dict) -> dict:
    from vllm_lint.scrape.extract import extract_release
    from vllm_lint.scrape.tree import DictTree

    root = FIXTURES / "era_0_8_5"
    data = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.py")}
    for path, pairs in files.items():
        text = data[path].decode()
        for old, new in pairs:
            assert old in text, old
            text = text.replace(old, new, 1)
        data[path] = text.encode()
    return extract_release(DictTree(data), "0.0.0", SOURCE)


def test_string_rewrite_then_literal():
    got = spec('    backend: Literal["auto", "deep_gemm"] = "auto"\n\n'
               '    @field_validator("backend", mode="before")\n    @classmethod\n'
               '    def _norm(cls, value):\n        """Normalise."""\n        if isinstance(value, str):\n'
               '            return value.lower().replace("-", "_")\n        return value\n')["fields"]["backend"]
    assert got["transform"] == [["lower"], ["replace", "-", "_"]]
    assert got["choices_enforced"] is True and got["prevalidated"] == ["str"]
    # a rewrite of another shape (a lookup, a call) is not a transform: the Literal is not enforced
    got = spec('    backend: Literal["auto", "deep_gemm"] = "auto"\n\n'
               '    @field_validator("backend", mode="before")\n    @classmethod\n'
               '    def _norm(cls, value):\n        if isinstance(value, str):\n'
               '            return ALIASES.get(value, value)\n        return value\n')["fields"]["backend"]
    assert "transform" not in got and "choices_enforced" not in got


def test_required_fields_of_a_pydantic_class():
    fields = spec("    key: int\n    seed: int = Field(ge=0)\n    other: int = Field(default=1)\n")["fields"]
    assert fields["key"]["required"] is True and fields["seed"]["required"] is True
    assert "required" not in fields["other"] and "required" not in fields["method"]
    # a plain dataclass is not judged (its release calls it with the keys only from some eras)
    fields = spec("    key: int = 0\n", imports=())["fields"]
    assert not any(f.get("required") for f in fields.values())


def test_object_keyed_by_an_enum():
    before = ('class Kind(Enum):\n    FULL = "full_attention"\n    MLA = "mla_attention"\n\n\n'
              'class Backend(Enum):\n    FLASH_ATTN = "a.B"\n    TRITON_MLA = "c.D"\n\n\n')
    got = spec('    per_kind: dict[str, Backend] = field(default_factory=dict)\n\n'
               '    @field_validator("per_kind", mode="before")\n    @classmethod\n'
               '    def _per_kind(cls, value):\n        if not isinstance(value, dict):\n            return value\n'
               '        valid = {k.value for k in Kind}\n        parsed = {}\n'
               '        for kind, backend in value.items():\n            if kind not in valid:\n'
               '                raise ValueError(kind)\n            if isinstance(backend, str):\n'
               '                backend = Backend[backend.upper()]\n            parsed[kind] = backend\n'
               '        return parsed\n', before=before)["fields"]["per_kind"]
    assert got["key_values"] == ["full_attention", "mla_attention"]
    assert got["value_names"] == {"names": ["FLASH_ATTN", "TRITON_MLA"], "case": "upper"}


def test_checks_over_each_item_and_fields_off_their_defaults():
    cfg = spec('    ops: list[str] = field(default_factory=list)\n    fmt: Optional[str] = None\n'
               '    data: str = "tree"\n\n'
               '    def __post_init__(self):\n        for op in self.ops:\n'
               '            if op not in {"all", "none"} and (len(op) < 2 or op[0] not in {"+", "-"}):\n'
               '                raise ValueError(op)\n'
               '        changed = [name for name, value, default in (("fmt", self.fmt, None), '
               '("data", self.data, "tree")) if value != default]\n'
               '        if self.method != "eagle" and changed:\n            names = ", ".join(changed)\n'
               '            raise ValueError(names)\n')
    each = [c for c in cfg["checks"] if "each" in c]
    assert [[(t["item"], t["test"]) for t in c["when"]] for c in each] == [
        [("value", "not_in"), ("len", "<")], [("value", "not_in"), ("first", "not_in")]]
    rest = [[(t["dest"], t["test"], t.get("value")) for t in c["when"]] for c in cfg["checks"] if "each" not in c]
    assert rest == [[("method", "!=", "eagle"), ("fmt", "!=", None)], [("method", "!=", "eagle"), ("data", "!=", "tree")]]


def test_item_names_of_an_object_field():
    from vllm_lint.scrape.name_tables import item_names

    text = ('_ONLINE_SHORTHANDS = {"fp8_per_tensor": QuantizationConfigArgs(linear=X), "mxfp4": QuantizationConfigArgs(moe=Y)}\n'
            'QUANT_KEY_NAMES = {"fp8_per_token": 1}\n_WEIGHT_QUANT_KEY_NAMES = {"mxfp8": 2}\n')
    assert item_names(text, "QuantizationConfigArgs") == {"targets": {
        "item_names": ["fp8_per_tensor", "mxfp4"],
        "item_key_names": {"weight": ["fp8_per_token", "mxfp8"], "activation": ["fp8_per_token"]}}}
    assert item_names(text.replace("QUANT_KEY_NAMES", "OTHER"), "QuantizationConfigArgs") == {}
    assert item_names(text, "Other") == {}
