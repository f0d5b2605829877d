"""Regression tests for the minimal disagreements that tools/crosscheck/difftest.py found between
vllm-lint and the real `vllm serve` parsers, on a synthetic database of four releases shaped
like the real eras (0.7.3: positional model required; 0.10.2: `--model` refused, `-O` alias,
from-CLI-free JSON; 0.13.0: `--model` moved to the positional; 0.24.0: config classes that
refuse unknown keys). One linter per release, many lines per test."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from packaging.version import Version

from synthetic_db import _record, build_releases, disagreements, opt
from vllm_lint.pipeline.engine import Linter
from vllm_lint.rules.base import select_rules
from vllm_lint.settings import Settings
from vllm_lint.surface.db import Database

COMMON = [
    opt("--model", default="facebook/opt-125m"),
    opt("--tensor-parallel-size", ["-tp"], type="int", default=1),
    opt("--dtype", choices=["auto", "bfloat16", "float16"], default="auto"),
    opt("--enforce-eager", kind="switch", type=None, default=False),
    opt("--max-model-len", type="human_int_or_auto", optional=True),
    opt("--served-model-name", nargs="+"),
    opt("--port", type="int", default=8000),
    opt("--kv-events-config", kind="json", type="json", optional=True),
    opt("--hf-overrides", type="dict_or_str"),
    opt("--override-generation-config", type="json"),
    opt("--lora-modules", nargs="+"),
]
KV_EVENTS = {"kv_events_config": {"class": "KVEventsConfig", "extra": "ignore", "fields": {
    "hwm": {"type": "int", "default": 100000}, "enable_kv_cache_events": {"type": "bool", "default": False},
    "endpoint": {"type": "str", "default": "tcp://*:5557"}, "replay_endpoint": {"type": "str | None"},
    "buffer_sizes": {"type": "list[int] | None"}, "mode": {"type": "CUDAGraphMode"}}}}
COMPILATION = {"compilation_config": {"class": "CompilationConfig", "extra": "forbid", "fields": {
    "level": {"type": "int | None"}, "use_cudagraph": {"type": "bool"}}}}


def _release(version, extra, json_configs, positional_nargs="?"):
    rec = _record(version, COMMON + extra, {})
    rec["era"]["image_entrypoint"] = ["vllm", "serve"] if Version(version) >= Version("0.12") else \
        ["python3", "-m", "vllm.entrypoints.openai.api_server"]
    rec["json_configs"] = copy.deepcopy(json_configs)
    if Version(version) >= Version("0.14"):  # the `config` decorator forbids extra keys everywhere
        for cfg in rec["json_configs"].values():
            cfg["extra"] = "forbid"
    rec["positionals"] = [{"dest": "model_tag", "nargs": positional_nargs}]
    if Version(version) >= Version("0.12"):
        rec["era"]["optimization_levels"] = [0, 1, 2, 3]
    return rec


#: before 0.9.2 CompilationConfig was a pydantic model that ignores unknown keys
PYDANTIC_COMPILATION = {"compilation_config": {**COMPILATION["compilation_config"], "extra": "ignore",
                                               "model": "pydantic"}}

#: a dict-or-string option (`Union[dict, "PoolerConfig"]`: union_dict_and_str) whose dict builds a class
POOLER = {"override_pooler_config": {"class": "PoolerConfig", "extra": "forbid", "fields": {
    "pooling_type": {"type": "str | None"}, "normalize": {"type": "bool | None"}}}}


#: a JSON option whose type only decodes the JSON: start-up builds the class from it
SPECULATIVE = {"speculative_config": {"class": "SpeculativeConfig", "extra": "forbid", "fields": {
    "model": {"type": "str | None"}, "num_speculative_tokens": {"type": "int | None"}}}}

#: what pydantic checks beyond the field types (0.24.0-0.33.0, scrape/field_checks.py): literal bounds,
#: validators that see some kinds of value first (`prevalidated`), nested classes, item types
FIELD_CHECKS = {
    "eplb_config": {"class": "EPLBConfig", "extra": "forbid", "fields": {
        "window_size": {"type": "int", "constraints": {"gt": 0}},
        "num_redundant_experts": {"type": "int", "constraints": {"ge": 0}},
        "use_async": {"type": "bool"}}},
    "kernel_config": {"class": "KernelConfig", "extra": "forbid", "fields": {
        # a wrap validator that accepts None unchecked, else hands the value on
        "enable_flashinfer_autotune": {"type": "bool", "prevalidated": ["null"]},
        "enable_jit_warmup": {"type": "bool", "prevalidated": ["null"]},
        # a before validator that lower-cases strings: other values meet the Literal
        "moe_backend": {"type": "str", "choices": ["auto", "triton"], "prevalidated": ["str"]},
        "ir_op_priority": {"type": "IrOpPriorityConfig", "object": True},
        "linear_backend_per_quant": {"type": "dict[str, str] | None", "constraints": {"min_length": 1}},
        "legacy": {"type": "int", "prevalidated": True}}},
    "quantization_config": {"class": "QuantizationConfigArgs", "extra": "forbid", "fields": {
        "linear": {"type": "QuantSpec | None", "object": True, "prevalidated": ["str"]},
        "ignore": {"type": "list[str]"},
        "targets": {"type": "dict[str, str] | None"}}},
    "pooler_config": {"class": "PoolerConfig", "extra": "forbid", "fields": {
        "dimensions": {"type": "int | None"}, "returned_token_ids": {"type": "list[int] | None"}}},
    "structured_outputs_config": {"class": "StructuredOutputsConfig", "extra": "forbid", "fields": {
        "backend": {"type": "str", "choices": ["auto", "xgrammar", "guidance", "outlines"], "choices_enforced": True},
        "disable_any_whitespace": {"type": "bool"}, "disable_additional_properties": {"type": "bool"}}},
    "compilation_config": {"class": "CompilationConfig", "extra": "forbid", "fields": {
        "level": {"type": "int | None"}, "use_cudagraph": {"type": "bool"},
        "encoder_cudagraph_token_budgets": {"type": "list[int]"},
        "splitting_ops": {"type": "list[str] | None"},
        "pass_config": {"type": "PassConfig", "object": True, "prevalidated": ["object"]},
        "dynamic_shapes_config": {"type": "DynamicShapesConfig", "object": True},
        "inductor_passes": {"type": "dict[str, str]"}}},
}


def _kvs(record):
    """An option whose type is parse_type/optional_type(json.loads) at 0.8.5-0.9.x (the extractor's
    ``kvs_fallback``): a value that is not `{...}` is read as KEY=VALUE integers."""
    return {**record, "kvs_fallback": True}


RELEASES = {
    "0.7.3": _release("0.7.3", [opt("--compilation-config", ["-O"], kind="json", type="json"),
                                opt("--limit-mm-per-prompt", type="kvs"),
                                opt("--enable-chunked-prefill", kind="bool_value", type="bool", nargs="?")],
                      PYDANTIC_COMPILATION,
                      positional_nargs=None),
    "0.8.5": _release("0.8.5", [_kvs(opt("--model-loader-extra-config", type="json", optional=True)),
                                {**opt("--guided-decoding-backend", choices=["auto", "guidance", "outlines", "xgrammar"]),
                                 "choices_vary": ["outlines"]}], {}),
    "0.9.2": _release("0.9.2", [_kvs({**opt("--limit-mm-per-prompt", type="json"), "config": "MultiModalConfig.limit_per_prompt"}),
                                opt("--allowed-origins", type="json"),   # a plain json.loads
                                opt("--override-pooler-config", kind="json", type="dict_or_str", optional=True)],
                      {**KV_EVENTS, **POOLER}),
    "0.10.2": _release("0.10.2", [opt("--compilation-config", ["-O"], kind="json", type="json"),
                                  opt("--data-parallel-size", ["-dp"], type="int"),
                                  opt("--data-parallel-address", ["-dpa"])], {**COMPILATION, **KV_EVENTS}),
    "0.13.0": _release("0.13.0", [opt("--compilation-config", ["-cc"], kind="json", type="json"),
                                  opt("--optimization-level", type="int")], {**COMPILATION, **KV_EVENTS}),
    "0.24.0": _release("0.24.0", [opt("--compilation-config", ["-cc"], kind="json", type="json"),
                                  opt("--diffusion-config", ["-dc"], kind="json", type="json", optional=True),
                                  {**opt("--speculative-config", ["-sc"], kind="json", type="json", optional=True),
                                   "class_at_start": True},
                                  opt("--enable-expert-parallel", ["-ep"], kind="switch", type=None),
                                  {**opt("--moe-backend", choices=["auto", "cutlass", "flashinfer_cutlass"]),
                                   "transform": [["lower"], ["replace", "-", "_"]]},
                                  opt("--collect-detailed-traces", nargs="+", optional=True,
                                      choices=["all", "model", "worker", "model,worker", "worker,model"]),
                                  opt("--eplb-config", kind="json", type="json"),
                                  opt("--kernel-config", kind="json", type="json"),
                                  opt("--quantization-config", kind="json", type="json"),
                                  opt("--pooler-config", kind="json", type="json", optional=True),
                                  opt("--structured-outputs-config", kind="json", type="json")],
                       {**KV_EVENTS, **FIELD_CHECKS, **SPECULATIVE}),
}


@pytest.fixture(scope="module")
def linters(tmp_path_factory):
    db = Database(build_releases(tmp_path_factory.mktemp("agreement-db"), RELEASES))
    return {v: Linter(db, Settings(target_version=v), select_rules([], [])) for v in RELEASES}


E110, E105 = ("VL110", "error"), ("VL105", "error")
W106 = ("VL106", "warning")  # `vllm serve --model`: moved with vLLM's warning that it will be removed

CASES = [
    # argument structure: a value missing, a word after a switch, a stray positional
    ("0.13.0", "m --max-model-len", {E110}),
    ("0.13.0", "m --max-model-len --dtype auto", {E110}),
    ("0.13.0", "m --port --enforce-eager", {E110}),
    ("0.13.0", "m --enforce-eager true", {E110}),
    ("0.24.0", "m -ep 1", {E110}),
    ("0.13.0", "m extra", {E110}),
    ("0.13.0", "m --served-model-name a b", set()),
    ("0.13.0", "m --enforce-eager $EAGER", set()),       # an unknown shell value: silent
    ("0.13.0", "m --max-model-len $LEN", set()),
    ("0.13.0", "m --port -1", set()),                    # a negative number is a value
    # vllm serve --model, era by era
    ("0.7.3", "--model m", {E110}),
    ("0.7.3", "m --model m", set()),
    ("0.7.3", "--model x m", set()),                  # `m` is still the positional model
    ("0.10.2", "--model m", {E110}),
    ("0.10.2", "--model=m --dtype auto", set()),      # parse_args looks for the word `--model`
    ("0.10.2", "m --model m", {E110}),
    ("0.10.2", "--model=m serve", set()),             # `serve` is the positional model
    ("0.13.0", "--model m", {W106}),
    ("0.13.0", "m --model m", {E110}),
    # single-dash prefixes: argparse matches them like long ones
    ("0.13.0", "m -t 2", {("VL107", "warning")}),   # `-t` is `-tp`, reported like `--tensor-par`
    ("0.10.2", "m -d 2", {("VL107", "error")}),
    # JSON-valued options
    ("0.13.0", "m --compilation-config 3", {E105}),
    ("0.13.0", "m --kv-events-config.hwm abc", {E105}),
    ("0.13.0", "m --kv-events-config.hwm 3", set()),
    ("0.13.0", "m --kv-events-config '{\"hwm\": \"abc\"}'", {E105}),
    ("0.13.0", "m --kv-events-config '{\"buffer_sizes\": 3}'", {E105}),
    ("0.13.0", "m --kv-events-config '{\"enable_kv_cache_events\": \"maybe\"}'", {E105}),
    ("0.13.0", "m --kv-events-config '{\"replay_endpoint\": null}'", set()),
    ("0.13.0", "m --kv-events-config '{\"mode\": 1}'", set()),   # an enum of ints and tuples takes 1
    ("0.13.0", "m --kv-events-config '[1]'", {E105}),
    ("0.13.0", "m --kv-events-config ''", set()),        # optional: the empty string is None
    ("0.24.0", "m -dc ''", set()),
    ("0.24.0", "m -dc None", set()),
    ("0.24.0", "m -sc null", set()),               # decoded only: None is "not given" at start
    ("0.24.0", "m -sc 3", {E105}),                 # start-up cannot build the class from it
    ("0.24.0", "m --kv-events-config null", {E105}),   # the parser's own class refuses None
    ("0.13.0", "m --kv-events-config '{\"bogus\": 1}'", {("VL105", "warning")}),   # KVEventsConfig ignores it
    ("0.13.0", "m -cc '{\"bogus\": 1}'", {E105}),          # CompilationConfig forbids extra keys
    ("0.13.0", "m -cc.bogus 1", {E105}),
    ("0.24.0", "m --kv-events-config '{\"bogus\": 1}'", {E105}),
    ("0.10.2", "m -O3", set()),
    ("0.10.2", "m --override-generation-config '{bad'", {E105}),
    ("0.10.2", "m --override-generation-config '[1, 2]'", set()),
    ("0.10.2", "m --hf-overrides some-string", set()),   # union_dict_and_str: a plain string is fine
    # adapter options: name=path or a JSON object per item
    ("0.13.0", "m --lora-modules=foo", {E105}),
    ("0.13.0", "m --lora-modules a=b '{\"name\": \"x\", \"path\": \"y\"}'", set()),
    ("0.13.0", "m --lora-modules a=b=c", {E105}),
    ("0.13.0", "m --lora-modules '[1]'", {E105}),
    # -O / --compilation-config through CompilationConfig.from_cli (a level 0-3 or a Python literal)
    ("0.7.3", "m -O 3", set()),
    ("0.7.3", "m -O 5", {E105}),
    ("0.7.3", "m -O \"{'level': 3}\"", set()),
    ("0.7.3", "m -O '{\"use_cudagraph\": true}'", {E105}),   # `true` is no Python literal
    ("0.7.3", "m --compilation-config '[1]'", {E105}),
    ("0.7.3", "m -O.level=3", {E105}),                # no dotted keys yet: `-O` gets `.level=3`
    ("0.7.3", "m -O \"{'bogus': 1}\"", {("VL105", "warning")}),   # a pydantic model ignores it
    # no model at all where the positional is required; --help exits first; a splat may hold it
    ("0.7.3", "--dtype auto", {E110}),
    ("0.7.3", "--help", set()),
    ("0.7.3", "$ARGS", set()),
    ("0.10.2", "--dtype auto", set()),
    ("0.7.3", "", {E110}),                            # `vllm serve` alone
    # StoreBoolean (to 0.7): true or false in any case, or nothing
    ("0.7.3", "m --enable-chunked-prefill", set()),
    ("0.7.3", "m --enable-chunked-prefill TRUE", set()),
    ("0.7.3", "m --enable-chunked-prefill=false", set()),
    ("0.7.3", "m --enable-chunked-prefill 1", {E105}),
    ("0.7.3", "m --enable-chunked-prefill maybe", {E105}),
    ("0.10.2", "", set()),
    # from 0.13 `--model=X` fills the positional slot as well
    ("0.13.0", "--model=m extra", {E110, W106}),
    ("0.13.0", "x --model=m", {E110}),
    ("0.13.0", "--model=m --dtype auto", {W106}),
    # from 0.17 parse_args refuses --served-model-name unless the first word is the model
    ("0.24.0", "--served-model-name x", {E110}),
    ("0.24.0", "--port 1 m --served-model-name x", {E110}),
    ("0.24.0", "--served_model_name=x --port 1", {E110}),
    ("0.24.0", "m --served-model-name x", set()),
    ("0.24.0", "--model m --served-model-name x", {W106}),   # --model moves to the front first
    ("0.24.0", "--config c.yaml --served-model-name x", {("VL103", "error")}),   # (no --config in this db)
    ("0.24.0", "$M --served-model-name x", set()),
    ("0.13.0", "--served-model-name x", set()),
    # nullable_kvs (up to 0.8.4) and the KEY=VALUE fallback of optional JSON options (0.8.5-0.9.2)
    ("0.7.3", "m --limit-mm-per-prompt image=2", set()),
    ("0.7.3", "m --limit-mm-per-prompt image=2,video=1", set()),
    ("0.7.3", "m --limit-mm-per-prompt ''", set()),
    ("0.7.3", "m --limit-mm-per-prompt '{\"image\": 2}'", {E105}),
    ("0.7.3", "m --limit-mm-per-prompt image=a", {E105}),
    ("0.8.5", "m --model-loader-extra-config null", {E105}),
    ("0.8.5", "m --model-loader-extra-config '[1, 2]'", {E105}),
    ("0.8.5", "m --model-loader-extra-config a=1", set()),
    ("0.8.5", "m --model-loader-extra-config '{\"a\": 1}'", set()),
    ("0.8.5", "m --model-loader-extra-config ''", set()),
    # choices from one of two Literals, picked in a process-dependent order
    ("0.8.5", "m --guided-decoding-backend outlines", {("VL105", "warning")}),
    ("0.8.5", "m --guided-decoding-backend xgrammar", set()),
    ("0.8.5", "m --guided-decoding-backend bogus", {E105}),
    ("0.9.2", "m --limit-mm-per-prompt ''", {E105}),       # parse_type: nullable_kvs('') has no item
    # at 0.9.2-0.11 only an attached -O<x> or a separate 0-3 is a level; `-O 4` is the JSON 4
    ("0.10.2", "m -O 4", {E105}),
    ("0.10.2", "m -O4", set()),
    ("0.10.2", "m --kv-events-config a=1", {E105}),        # the fallback is gone from 0.10
    ("0.9.2", "m --limit-mm-per-prompt image=2", set()),   # parse_type(json.loads) falls back too
    ("0.9.2", "m --limit-mm-per-prompt '[1]'", {E105}),
    ("0.9.2", "m --kv-events-config a=1", {E105}),         # a config class: no fallback
    ("0.9.2", "m --kv-events-config '{\n\"hwm\": 3\n}'", set()),
    # a type that lower-cases and turns `-` into `_` before the choice check (`transform`)
    ("0.24.0", "m --moe-backend CUTLASS", set()),
    ("0.24.0", "m --moe-backend Flashinfer-Cutlass", set()),
    ("0.24.0", "m --moe-backend=AUTO", set()),
    ("0.24.0", "m --moe-backend bogus", {E105}),
    ("0.24.0", "m --dtype AUTO", {E105}),                  # no transform: as written
    # choices computed from a Literal (comma pairs); the word None and '' are Python None there
    ("0.24.0", "m --collect-detailed-traces model,worker", set()),
    ("0.24.0", "m --collect-detailed-traces model worker", set()),
    ("0.24.0", "m --collect-detailed-traces /tmp/x", {E105}),
    ("0.24.0", "m --collect-detailed-traces model,model", {E105}),
    ("0.24.0", "m --collect-detailed-traces ''", {E105}),
    ("0.24.0", "m --collect-detailed-traces None", {E105}),
    ("0.24.0", "m --collect-detailed-traces all 1", {E105}),
    # a plain json.loads has no KEY=VALUE fallback; union_dict_and_str keeps a non-object as a string
    ("0.9.2", "m --allowed-origins a=1", {E105}),
    ("0.9.2", "m --allowed-origins ''", {E105}),
    ("0.9.2", "m --allowed-origins '[\"*\"]'", set()),
    ("0.9.2", "m --override-pooler-config a=x", set()),
    ("0.9.2", "m --override-pooler-config '{\"pooling_type\": \"CLS\", \"normalize\": true, '", set()),
    ("0.9.2", "m --override-pooler-config '{\"pooling_type\": \"CLS\"}'", set()),
    ("0.9.2", "m --override-pooler-config '{bad}'", {E105}),
    ("0.9.2", "m --override-pooler-config '{\"bogus\": 1}'", {E105}),
    # human_readable_int: one size letter (upper-case: no decimals) or a plain int()
    ("0.24.0", "m --max-model-len 32k", set()),
    ("0.24.0", "m --max-model-len 25.6k", set()),
    ("0.24.0", "m --max-model-len 2K", set()),
    ("0.24.0", "m --max-model-len 1_000", set()),
    ("0.24.0", "m --max-model-len +5", set()),
    ("0.24.0", "m --max-model-len AUTO", set()),
    ("0.24.0", "m --max-model-len 32kb", {E105}),
    ("0.24.0", "m --max-model-len 1.5", {E105}),
    ("0.24.0", "m --max-model-len 1.5K", {E105}),
    ("0.24.0", "m --max-model-len '32 k'", {E105}),
    # after `--` every word is a positional: the model where none was given, the rest left over
    ("0.24.0", "m -- --dtype auto", {E110}),
    ("0.24.0", "-- m", set()),
    ("0.24.0", "m --port 1 --", {E110}),
    ("0.24.0", "m --", set()),
    ("0.24.0", "m -- $X", set()),
    # a word with a space before any `=` is a positional unless a short option starts it
    ("0.24.0", "'-dc{\"a\": 1}'", set()),                # the model
    ("0.24.0", "m '-dc{\"a\": 1}'", {E110}),
    ("0.24.0", "m '--nope x'", {E110}),
    ("0.24.0", "m --port '-dc{\"a\": 1}'", {E105}),      # the value of --port
    ("0.10.2", "m '-O{\"level\": 3}'", {E105}),   # -O, its value attached: `-O.level=<x>`, no level
    # from 0.12 the parser takes any optimization level; start-up keeps 0-3 (the last one given)
    ("0.13.0", "m -O3", set()),
    ("0.13.0", "m -O4", {E105}),
    ("0.13.0", "m '-O{}'", {E105}),
    ("0.13.0", "m --optimization-level 7", {E105}),
    ("0.13.0", "m -O4 -O3", {("VL108", "warning")}),   # a duplicate, but level 3 starts
    ("0.24.0", "m -Ofoo -O.mode=3", {("VL101", "error")}),   # the later word is the level start-up sees
    # from 0.12 `-O.key` is one word for --optimization-level: the next word is left over
    ("0.24.0", "m -O.mode 3", {("VL101", "error"), E110}),
    ("0.10.2", "m -O.level 3", set()),
    # literal bounds of config-class fields (pydantic's greater_than & co., inside the type function)
    ("0.24.0", "m --eplb-config.window_size 0", {E105}),
    ("0.24.0", "m --eplb-config.window_size 1", set()),
    ("0.24.0", "m --eplb-config '{\"window_size\": -1}'", {E105}),
    ("0.24.0", "m --eplb-config '{\"window_size\": \"0\"}'", {E105}),
    ("0.24.0", "m --eplb-config '{\"window_size\": 1.0}'", set()),
    ("0.24.0", "m --eplb-config '{\"window_size\": true}'", set()),
    ("0.24.0", "m --eplb-config '{\"num_redundant_experts\": 0}'", set()),
    ("0.24.0", "m --eplb-config '{\"num_redundant_experts\": -1}'", {E105}),
    ("0.24.0", "m --kernel-config '{\"linear_backend_per_quant\": {}}'", {E105}),
    ("0.24.0", "m --kernel-config '{\"linear_backend_per_quant\": {\"fp8\": \"cutlass\"}}'", set()),
    # a validator that sees some kinds of value first: the others meet the type
    ("0.24.0", "m --kernel-config '{\"enable_flashinfer_autotune\": [1]}'", {E105}),
    ("0.24.0", "m --kernel-config '{\"enable_flashinfer_autotune\": null}'", set()),
    ("0.24.0", "m --kernel-config '{\"enable_flashinfer_autotune\": \"yes\"}'", set()),
    ("0.24.0", "m --kernel-config.enable_jit_warmup='{\"x\": 1}'", {E105}),
    ("0.24.0", "m --kernel-config '{\"moe_backend\": 3}'", {E105}),
    ("0.24.0", "m --kernel-config '{\"moe_backend\": \"TRITON\"}'", set()),
    ("0.24.0", "m --kernel-config '{\"legacy\": [1]}'", set()),   # a validator not understood
    ("0.24.0", "m --pooler-config '{\"dimensions\": {\"x\": 1}}'", {E105}),
    ("0.24.0", "m --pooler-config '{\"dimensions\": \"3\"}'", set()),
    ("0.24.0", "m --quantization-config '{\"targets\": true}'", {E105}),
    ("0.24.0", "m --quantization-config '{\"targets\": null}'", set()),
    ("0.24.0", "m --quantization-config '{\"linear\": 3}'", {E105}),
    ("0.24.0", "m --quantization-config '{\"linear\": \"fp8_per_tensor\"}'", set()),
    # items of lists and values of objects; nested classes take objects
    ("0.24.0", "m -cc '{\"encoder_cudagraph_token_budgets\": [\"a\"]}'", {E105}),
    ("0.24.0", "m -cc '{\"encoder_cudagraph_token_budgets\": [\"1\", 2.0, true]}'", set()),
    ("0.24.0", "m -cc '{\"encoder_cudagraph_token_budgets\": [1, 2.5]}'", {E105}),
    ("0.24.0", "m -cc '{\"splitting_ops\": \"a,b\"}'", {E105}),
    ("0.24.0", "m -cc.splitting_ops a,b", {E105}),
    ("0.24.0", "m -cc.splitting_ops+ a", set()),
    ("0.24.0", "m -cc '{\"inductor_passes\": {\"a\": 1}}'", {E105}),
    ("0.24.0", "m --pooler-config '{\"returned_token_ids\": [\"1\"]}'", set()),
    ("0.24.0", "m --pooler-config '{\"returned_token_ids\": [\"a\"]}'", {E105}),
    ("0.24.0", "m --quantization-config '{\"ignore\": [1]}'", {E105}),
    ("0.24.0", "m --quantization-config '{\"targets\": {\"a\": 1}}'", {E105}),
    ("0.24.0", "m -cc '{\"pass_config\": \"x\"}'", {E105}),
    ("0.24.0", "m -cc '{\"pass_config\": {}}'", set()),
    ("0.24.0", "m -cc '{\"dynamic_shapes_config\": []}'", {E105}),
    ("0.24.0", "m -cc '{\"dynamic_shapes_config\": null}'", {E105}),
    ("0.24.0", "m --kernel-config '{\"ir_op_priority\": 3}'", {E105}),
    ("0.24.0", "m --kernel-config '{\"ir_op_priority\": {\"rms_norm\": \"a,b\"}}'", set()),
    # StructuredOutputsConfig's model validator: the switches only with the backends that have them
    ("0.24.0", "m --structured-outputs-config '{\"disable_any_whitespace\": true}'", {E105}),
    ("0.24.0", "m --structured-outputs-config '{\"disable_any_whitespace\": \"yes\"}'", {E105}),
    ("0.24.0", "m --structured-outputs-config '{\"disable_any_whitespace\": 1}'", {E105}),
    ("0.24.0", "m --structured-outputs-config '{\"disable_any_whitespace\": false}'", set()),
    ("0.24.0", "m --structured-outputs-config '{\"disable_any_whitespace\": \"no\"}'", set()),
    ("0.24.0", "m --structured-outputs-config '{\"disable_any_whitespace\": true, \"backend\": \"guidance\"}'", set()),
    ("0.24.0", "m --structured-outputs-config '{\"disable_any_whitespace\": true, \"backend\": \"outlines\"}'", {E105}),
    ("0.24.0", "m --structured-outputs-config.disable_any_whitespace true", {E105}),
    ("0.24.0", "m --structured-outputs-config.disable_any_whitespace true --structured-outputs-config.backend xgrammar",
     set()),
    ("0.24.0", "m --structured-outputs-config '{\"disable_additional_properties\": true, \"backend\": \"xgrammar\"}'",
     {E105}),
    ("0.24.0", "m --structured-outputs-config '{\"disable_additional_properties\": true, \"backend\": \"guidance\"}'",
     set()),
]


def test_lines_agree_with_the_real_parsers(linters):
    wrong = disagreements(linters, CASES)
    assert not wrong, "\n".join(map(str, wrong))


def test_model_option_fix_moves_the_value_to_the_positional(linters):
    for version, line, fixed in [("0.10.2", "--model m --dtype auto", "m --dtype auto"),
                                 ("0.10.2", "--dtype auto --model m", "--dtype auto m"),
                                 ("0.7.3", "--model m", "m")]:
        data = f"vllm serve {line}\n".encode()
        diags = linters[version].analyse(Path("t.sh"), data, mode="auto", fmt="shell").diagnostics
        (d,) = [d for d in diags if d.code == "VL110"]
        assert d.fix is not None and d.fix.applicability == "safe"
        out = data
        for e in sorted(d.fix.edits, key=lambda e: -e.span.start):
            out = out[:e.span.start] + e.content.encode() + out[e.span.end:]
        assert out.decode() == f"vllm serve {fixed}\n", (version, line, out)


def _lint(linters, version, name, text):
    fmt = "yaml" if name.endswith(".yaml") else "shell"
    diags = linters[version].analyse(Path(name), text.encode(), mode="auto", fmt=fmt).diagnostics
    return diags


def test_words_repeating_the_image_entrypoint(linters):
    cases = [
        # (release, file, text, codes expected, fixed text or None)
        ("0.13.0", "run.sh", "docker run --gpus all vllm/vllm-openai:v0.13.0 vllm serve m --dtype auto\n",
         {"VL111"}, "docker run --gpus all vllm/vllm-openai:v0.13.0 m --dtype auto\n"),
        ("0.13.0", "run.sh", "docker run vllm/vllm-openai:v0.13.0 serve m\n", {"VL111"},
         "docker run vllm/vllm-openai:v0.13.0 m\n"),
        ("0.13.0", "run.sh", "docker run vllm/vllm-openai:v0.13.0 m --dtype auto\n", set(), None),
        ("0.13.0", "run.sh", "docker run --entrypoint vllm vllm/vllm-openai:v0.13.0 serve m\n", set(), None),
        ("0.10.2", "run.sh", "docker run vllm/vllm-openai:v0.10.2 --model m --dtype auto\n", set(), None),
        ("0.10.2", "run.sh", "docker run vllm/vllm-openai:v0.10.2 vllm serve m\n", {"VL111"}, None),
        ("0.13.0", "compose.yaml", "services:\n  vllm:\n    image: vllm/vllm-openai:v0.13.0\n"
                                   "    command: [\"vllm\", \"serve\", \"m\", \"--dtype\", \"auto\"]\n", {"VL111"}, None),
        ("0.13.0", "compose.yaml", "services:\n  vllm:\n    image: vllm/vllm-openai:v0.13.0\n"
                                   "    command: [\"serve\", \"m\"]\n", {"VL111"}, None),
        ("0.13.0", "compose.yaml", "services:\n  vllm:\n    image: vllm/vllm-openai:v0.13.0\n"
                                   "    command: [\"m\", \"--dtype\", \"auto\"]\n", set(), None),
    ]
    wrong = []
    for version, name, text, want, fixed in cases:
        diags = _lint(linters, version, name, text)
        got = {d.code for d in diags if d.code == "VL111"}
        if got != want:
            wrong.append((version, text, sorted(f"{d.code} {d.message}" for d in diags)))
            continue
        if fixed is not None:
            (d,) = [d for d in diags if d.code == "VL111"]
            out = text.encode()
            for e in sorted(d.fix.edits, key=lambda e: -e.span.start):
                out = out[:e.span.start] + e.content.encode() + out[e.span.end:]
            if out.decode() != fixed:
                wrong.append((version, text, out.decode()))
    assert not wrong, "\n".join(map(str, wrong))
