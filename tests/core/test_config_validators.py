"""Regression lines for what vLLM refuses inside the parser's type functions and actions, found by
tools/crosscheck/difftest.py and verified with the real parsers: the config classes' own
validators (a connector without a role, hard-coded value lists; knowledge/config_checks.py), the
value types and string Literals of pydantic-validated config fields, and the items of the adapter
options (knowledge/adapters.py). A synthetic database of releases shaped like the real eras; one
linter per release, many lines per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from synthetic_db import _record, build_releases, disagreements, opt
from vllm_lint.pipeline.engine import Linter
from vllm_lint.rules.base import select_rules
from vllm_lint.settings import Settings
from vllm_lint.surface.db import Database

COMMON = [
    opt("--model", default="facebook/opt-125m"),
    opt("--kv-transfer-config", kind="json", type="json", optional=True),
    opt("--lora-modules", nargs="+"),
]
KV = {"class": "KVTransferConfig", "extra": "ignore", "fields": {
    "kv_connector": {"type": "str | None"}, "kv_role": {"type": "str | None"}, "engine_id": {"type": "str | None"},
    "kv_port": {"type": "int"}, "kv_buffer_size": {"type": "float"},
    "kv_connector_extra_config": {"type": "dict[str, Any]"}}}
#: 0.6.5-0.8.5: a pydantic model (from_cli), no Literal for the role
KV_PYDANTIC = {**KV, "model": "pydantic"}
#: from 0.9.0 the role is a Literal, enforced by pydantic's TypeAdapter from 0.9.2
KV_DATACLASS = {**KV, "fields": {**KV["fields"], "kv_role": {
    "type": "str | None", "choices": ["kv_producer", "kv_both", "kv_consumer", "kv_both"], "choices_enforced": True}}}
EC = {"class": "ECTransferConfig", "extra": "forbid", "fields": {
    "ec_connector": {"type": "str | None"},
    "ec_role": {"type": "str | None", "choices": ["ec_producer", "ec_consumer"], "choices_enforced": True}}}
STRUCTURED = {"class": "StructuredOutputsConfig", "extra": "forbid", "fields": {
    "reasoning_parser_plugin": {"type": "str"}, "disable_any_whitespace": {"type": "bool"}}}
PROFILER = {"class": "ProfilerConfig", "extra": "forbid", "fields": {
    "profiler": {"type": "str | None", "choices": ["torch", "cuda"], "choices_enforced": True},
    "torch_profiler_dir": {"type": "str"},
    # an enum (or a Literal a validator rewrites first): its choices are not what the class takes
    "backend": {"type": "str", "choices": ["FLASH_ATTN"]},
    # a field a `mode="before"` validator sees first: its type says too little
    "delay_iterations": {"type": "int", "prevalidated": True}}}
JSON_13 = [opt("--ec-transfer-config", kind="json", type="json", optional=True),
           opt("--structured-outputs-config", kind="json", type="json"),
           opt("--profiler-config", kind="json", type="json")]


def _release(version, extra, json_configs):
    rec = _record(version, COMMON + extra, {})
    rec["json_configs"] = json_configs
    rec["positionals"] = [{"dest": "model_tag", "nargs": "?"}]
    return rec


RELEASES = {
    "0.6.6": _release("0.6.6", [opt("--prompt-adapters", nargs="+")],
                            {"kv_transfer_config": KV_PYDANTIC}),
    "0.6.1": _release("0.6.1", [], {}),
    "0.8.5": _release("0.8.5", [opt("--prompt-adapters", nargs="+")], {"kv_transfer_config": KV_PYDANTIC}),
    "0.9.0": _release("0.9.0", [], {"kv_transfer_config": KV_DATACLASS}),
    "0.9.2": _release("0.9.2", [opt("--prompt-adapters", nargs="+"), opt("--allowed-origins", type="json"),
                                {**opt("--media-io-kwargs", type="json"), "config": "MultiModalConfig.media_io_kwargs",
                                 "kvs_fallback": True}],   # the extractor's mark of parse_type(json.loads)
                      {"kv_transfer_config": KV_DATACLASS}),
    "0.13.0": _release("0.13.0", JSON_13, {"kv_transfer_config": KV_DATACLASS, "ec_transfer_config": EC,
                                           "structured_outputs_config": STRUCTURED, "profiler_config": PROFILER}),
    "0.17.0": _release("0.17.0", JSON_13[:1], {"kv_transfer_config": KV_DATACLASS, "ec_transfer_config": {
        **EC, "fields": {**EC["fields"], "ec_role": {**EC["fields"]["ec_role"],
                                                     "choices": ["ec_producer", "ec_both", "ec_consumer", "ec_both"]}}}}),
    "0.10.2": _release("0.10.2", [opt("--compilation-config", ["-O"], kind="json", type="json")],
                       {"compilation_config": {"class": "CompilationConfig", "extra": "forbid", "fields": {
                           "level": {"type": "int | None"}, "cudagraph_capture_sizes": {"type": "list[int] | None"}}}}),
    "0.11.1": _release("0.11.1", [opt("--compilation-config", ["-O"], kind="json", type="json")],
                       {"compilation_config": {"class": "CompilationConfig", "extra": "forbid", "fields": {
                           "mode": {"type": "int | None"}, "level": {"type": "int | None"}}}}),
    "0.22.0": _release("0.22.0", [], {}),
    "0.30.0": _release("0.30.0", [], {}),
}


@pytest.fixture(scope="module")
def linters(tmp_path_factory):
    db = Database(build_releases(tmp_path_factory.mktemp("validators-db"), RELEASES))
    return {v: Linter(db, Settings(target_version=v), select_rules([], [])) for v in RELEASES}


E105 = ("VL105", "error")
NIXL = '\'{"kv_connector": "NixlConnector"}\''
NIXL_BOTH = '\'{"kv_connector": "NixlConnector", "kv_role": "kv_both"}\''

CASES = [
    # a connector needs a role (every release with KVTransferConfig, from 0.6.5)
    ("0.13.0", "m --kv-transfer-config.kv_connector NixlConnector", {E105}),
    ("0.13.0", "m --kv-transfer-config.kv_connector NixlConnector --kv-transfer-config.kv_role kv_both", set()),
    ("0.13.0", f"m --kv-transfer-config {NIXL}", {E105}),
    ("0.13.0", f"m --kv-transfer-config {NIXL_BOTH}", set()),
    ("0.13.0", "m --kv-transfer-config '{\"kv_connector\": null}'", set()),
    ("0.13.0", "m --kv-transfer-config '{\"kv_role\": \"kv_both\"}'", set()),
    # every occurrence goes through the type function; the dotted keys are one more occurrence
    ("0.13.0", f"m --kv-transfer-config {NIXL} --kv-transfer-config.kv_role kv_both", {E105, ("VL108", "warning")}),
    ("0.13.0", f"m --kv-transfer-config {NIXL} --kv-transfer-config {NIXL_BOTH}", {E105, ("VL108", "warning")}),
    ("0.13.0", "m --kv-transfer-config \"{\\\"kv_connector\\\": \\\"$C\\\"}\"", set()),  # unknown value
    ("0.13.0", "m --kv-transfer-config.kv_connector $C", set()),              # $C may be `null`
    ("0.13.0", "m --kv-transfer-config.kv_connector X --kv-transfer-config.kv_role $R", set()),
    ("0.13.0", "m --kv-transfer-config '{\"kv_connector\": \"X\", \"kv_role\": \"kv_bot\"}'", {E105}),
    ("0.8.5", f"m --kv-transfer-config {NIXL}", {E105}),
    ("0.8.5", f"m --kv-transfer-config {NIXL_BOTH}", set()),
    ("0.8.5", "m --kv-transfer-config '{\"kv_connector\": \"X\", \"kv_role\": \"kv_bot\"}'", {E105}),
    ("0.9.0", f"m --kv-transfer-config {NIXL}", {E105}),
    # 0.6.5-0.6.6.post1: two connectors only
    ("0.6.6", f"m --kv-transfer-config {NIXL_BOTH}", {E105}),
    ("0.6.6", "m --kv-transfer-config '{\"kv_connector\": \"PyNcclConnector\", \"kv_role\": \"kv_both\"}'",
     set()),
    ("0.6.6", "m --kv-transfer-config '{\"kv_connector\": \"MooncakeConnector\", \"kv_role\": \"kv_both\"}'",
     set()),
    ("0.6.6", "m --kv-transfer-config '{\"kv_buffer_size\": \"1e9\"}'", set()),
    # EC connectors need a role too; ec_both from 0.17.0
    ("0.13.0", "m --ec-transfer-config '{\"ec_connector\": \"ECCPUConnector\"}'", {E105}),
    ("0.13.0", "m --ec-transfer-config '{\"ec_connector\": \"ECCPUConnector\", \"ec_role\": \"ec_both\"}'", {E105}),
    ("0.13.0", "m --ec-transfer-config '{\"ec_connector\": \"ECCPUConnector\", \"ec_role\": \"ec_producer\"}'", set()),
    ("0.17.0", "m --ec-transfer-config '{\"ec_connector\": \"ECCPUConnector\", \"ec_role\": \"ec_both\"}'", set()),
    # value types of pydantic-validated fields: a string field takes no number or boolean
    ("0.13.0", "m --structured-outputs-config.reasoning_parser_plugin=true", {E105}),
    ("0.13.0", "m --structured-outputs-config.reasoning_parser_plugin=1", {E105}),
    ("0.13.0", "m --structured-outputs-config.reasoning_parser_plugin=abc", set()),
    ("0.13.0", "m --structured-outputs-config.disable_any_whitespace=no", set()),
    # a lax boolean true, refused by the class's model validator with the default backend `auto`
    ("0.13.0", "m --structured-outputs-config.disable_any_whitespace=yes", {E105}),
    ("0.13.0", "m --kv-transfer-config.engine_id 123", {E105}),
    ("0.13.0", "m --kv-transfer-config.engine_id '\"123\"'", set()),
    ("0.13.0", "m --kv-transfer-config.kv_port '\"14579\"'", set()),         # lax mode: a numeric string
    # before 0.9.1 a dataclass config was called with the keys: no type is checked
    ("0.9.0", "m --kv-transfer-config '{\"engine_id\": 123}'", set()),
    # ... but 0.9.0 rewrites `_` to `-` in a dotted key too: `engine-id` is refused (real parser)
    ("0.9.0", "m --kv-transfer-config.engine_id 123", {E105}),
    # string Literals no validator rewrites are enforced; other choices are not judged
    ("0.13.0", "m --profiler-config '{\"profiler\": \"proton\"}'", {E105}),
    ("0.13.0", "m --profiler-config.profiler cuda", set()),
    ("0.13.0", "m --kv-transfer-config '{\"kv_role\": 1, \"bogus\": 2}'", {E105}),   # ignored key, refused value
    ("0.13.0", "m --kv-transfer-config '{\"kv_role\": \"kv_both\", \"bogus\": 2}'", {("VL105", "warning")}),
    ("0.13.0", "m --profiler-config '{\"profiler\": null}'", set()),
    ("0.13.0", "m --profiler-config '{\"backend\": \"flash_attn\"}'", set()),
    ("0.13.0", "m --profiler-config.delay_iterations many", set()),
    ("0.9.2", "m --kv-transfer-config.kv_role KV_BOTH --kv-transfer-config.kv_connector X", {E105}),
    # 0.9.2-0.11: parse_args rewrites `-O<x>` / `-O=<x>` / `-O <0-3>` to the dotted key `-O.level`
    # (`-O.mode` from 0.11.1); the dotted keys merge, the last value of a key winning
    ("0.10.2", "m -O{}", {E105}),
    ("0.10.2", "m -Ox", {E105}),
    ("0.10.2", "m -Ox -O4", set()),
    ("0.10.2", "m -O4 -Ox", {E105}),
    ("0.10.2", "m -O3", set()),
    ("0.10.2", "m -O=2", set()),
    ("0.10.2", "m -O 3", set()),
    ("0.10.2", "m -O '{\"level\": 3}'", set()),
    ("0.10.2", "m -O '{\"level\": \"x\"}'", {E105}),
    ("0.11.1", "m -Ox", {E105}),
    ("0.11.1", "m -O3 -O.mode=2", set()),
    # the dotted keys are appended after everything else: they replace an inline value
    ("0.10.2", "m -O3 --compilation-config '{\"cudagraph_capture_sizes\": [1]}'", {("VL108", "warning")}),
    ("0.10.2", "m --compilation-config '{\"level\": 3}' -O.level=3", {("VL108", "warning")}),
    # 0.9.x: parse_type(json.loads) of config fields falls back to KEY=VALUE; a plain json.loads does not
    ("0.9.2", "m --allowed-origins ''", {E105}),
    ("0.9.2", "m --allowed-origins a=1", {E105}),
    ("0.9.2", "m --allowed-origins '[\"*\"]'", set()),
    ("0.9.2", "m --media-io-kwargs a=1", set()),
    # --lora-modules items
    ("0.13.0", "m --lora-modules '{\"name\": \"a\", \"path\": \"p\", \"is_3d_lora_weight\": false}'", {E105}),
    ("0.22.0", "m --lora-modules '{\"name\": \"a\", \"path\": \"p\", \"is_3d_lora_weight\": false}'", set()),
    ("0.13.0", "m --lora-modules '{\"name\": \"a\", \"path\": \"p\", \"base_model_name\": \"m\"}'", set()),
    ("0.13.0", "m --lora-modules '{\"name\": \"a\"}'", {E105}),
    ("0.13.0", "m --lora-modules=foo", {E105}),
    ("0.13.0", "m --lora-modules a=b=c", {E105}),
    ("0.30.0", "m --lora-modules a=b=c", set()),         # split on the first `=` from 0.30.0
    ("0.13.0", "m --lora-modules ''", set()),
    ("0.6.1", "m --lora-modules '{\"name\": \"a\", \"path\": \"p\"}'", {E105}),   # name=path only
    ("0.6.1", "m --lora-modules a=b,c", set()),
    # --prompt-adapters items: name=path
    ("0.9.2", "m --prompt-adapters bar-baz", {E105}),
    ("0.8.5", "m --prompt-adapters a=b c", {E105}),
    ("0.6.6", "m --prompt-adapters a=b c=d", set()),
]


def test_lines_agree_with_the_real_parsers(linters):
    wrong = disagreements(linters, CASES)
    assert not wrong, "\n".join(map(str, wrong))


def test_messages_name_the_missing_key(linters):
    diags = linters["0.13.0"].analyse(
        Path("t.sh"), b"vllm serve m --kv-transfer-config.kv_connector NixlConnector\n", mode="auto", fmt="shell").diagnostics
    (d,) = [d for d in diags if d.code == "VL105"]
    assert "`kv_connector` without `kv_role`" in d.message and d.option == "--kv-transfer-config"
    # the finding points at the value of the key that needs the other
    assert d.span is not None
