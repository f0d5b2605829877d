"""extract_release over synthetic source trees shaped like each vLLM CLI era (fixtures/<era>)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vllm_lint.scrape.extract import ExtractionError, extract_release
from vllm_lint.scrape.tree import DictTree
from vllm_lint.surface.db import Surface

FIXTURES = Path(__file__).parent / "fixtures"
SOURCE = {"kind": "git", "ref": "fixture"}


def load_tree(era: str, patch: dict | None = None) -> DictTree:
    root = FIXTURES / era
    files = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.py")}
    for path, (old, new) in (patch or {}).items():
        text = files[path].decode()
        assert old in text
        files[path] = text.replace(old, new).encode()
    return DictTree(files)


def extract(era: str, patch: dict | None = None) -> dict:
    return extract_release(load_tree(era, patch), "0.0.0", SOURCE)


def by_name(rec: dict) -> dict:
    return {o["name"]: o for o in rec["options"]}


def accepted(rec: dict) -> set:
    out = set()
    for o in rec["options"]:
        out.add(o["name"])
        out.update(o["aliases"])
    return out


def pick(opt: dict, *keys: str) -> dict:
    return {k: opt[k] for k in keys}


# --------------------------------------------------------------------------- 0.4: api_server


def test_era_0_4_strings_and_entry():
    rec = extract("era_0_4")
    assert rec["schema"] == 1 and rec["version"] == "0.0.0" and rec["source"] == SOURCE
    assert rec["era"] == {"entry": "vllm/entrypoints/openai/api_server.py",
                          "parser_module": "vllm/entrypoints/openai/cli_args.py", "image_entrypoint": None,
                          "optimization_levels": None}
    assert rec["positionals"] == []
    assert accepted(rec) == {
        "-h", "--help", "--host", "--port", "--allowed-origins", "--lora-modules", "--model",
        "--tokenizer", "--tensor-parallel-size", "-tp", "--quantization", "-q", "--enforce-eager",
        "--kv-cache-dtype", "--max-context-len-to-capture", "--max-seq-len-to-capture",
        "--served-model-name", "--engine-use-ray", "--disable-log-requests"}
    assert [o["name"] for o in rec["options"]] == sorted(o["name"] for o in rec["options"])


def test_era_0_4_option_facts():
    o = by_name(extract("era_0_4"))
    assert pick(o["--quantization"], "aliases", "kind", "type", "optional", "choices", "default",
                "default_computed", "group", "config") == {
        "aliases": ["-q"], "kind": "valued", "type": "str", "optional": True,
        "choices": ["awq", "gptq", "fp8", "None"], "default": None, "default_computed": False,
        "group": None, "config": None}
    assert pick(o["--tensor-parallel-size"], "aliases", "type", "default") == {
        "aliases": ["-tp"], "type": "int", "default": 1}
    assert pick(o["--enforce-eager"], "kind", "type", "default", "negations") == {
        "kind": "switch", "type": None, "default": False, "negations": []}
    assert pick(o["--allowed-origins"], "type", "default") == {"type": "json", "default": ["*"]}
    assert o["--served-model-name"]["nargs"] == "+"
    assert o["--max-context-len-to-capture"]["deprecated"] == {
        "how": "help", "successor": "--max-seq-len-to-capture"}
    assert o["--max-seq-len-to-capture"]["deprecated"] is None
    assert o["--help"]["aliases"] == ["-h"]


def test_era_0_4_engine_args_llm_env():
    rec = extract("era_0_4")
    ea = rec["engine_args"]
    assert ea["tensor_parallel_size"] == {"type": "int", "default": 1, "default_computed": False}
    assert ea["served_model_name"]["type"] == "list[str] | None"
    assert ea["max_context_len_to_capture"]["type"] == "int | None"
    assert rec["async_engine_args"] == ["disable_log_requests", "engine_use_ray"]
    assert rec["llm_params"] == ["model", "tokenizer", "tensor_parallel_size", "seed"]
    assert rec["json_configs"] == {}
    env = rec["env"]
    assert set(env) == {"VLLM_HOST_IP", "VLLM_PORT", "VLLM_USE_TRITON_FLASH_ATTN", "LOCAL_RANK",
                        "VLLM_CACHE_ROOT"}
    assert env["VLLM_HOST_IP"] == {"type": "str", "default": "", "default_computed": False,
                                   "choices": None, "deprecated": None}
    assert env["VLLM_PORT"]["default"] is None and env["VLLM_PORT"]["type"] == "int | None"
    assert env["VLLM_USE_TRITON_FLASH_ATTN"]["default"] is True
    assert env["LOCAL_RANK"]["default"] == 0
    assert env["VLLM_CACHE_ROOT"]["default_computed"] is True


# --------------------------------------------------------------------------- 0.6: scripts.py


def test_era_0_6_serve_parser():
    rec = extract("era_0_6")
    assert rec["era"]["entry"] == "vllm/scripts.py"
    assert rec["positionals"] == [{"dest": "model_tag", "nargs": None}]
    acc = accepted(rec)
    assert "--url" not in acc  # belongs to the `complete` sub-parser
    assert acc == {"-h", "--help", "--config", "--host", "--port", "--chat-template-content-format",
                   "--disable-frontend-multiprocessing", "--model", "--config-format",
                   "--enable-prefix-caching", "--no-enable-prefix-caching", "--enable-chunked-prefill",
                   "--use-v2-block-manager", "--compilation-config", "-O", "--kv-transfer-config",
                   "--disable-log-requests"}
    o = by_name(rec)
    assert pick(o["--compilation-config"], "aliases", "kind", "type") == {
        "aliases": ["-O"], "kind": "json", "type": "json"}
    assert pick(o["--enable-prefix-caching"], "kind", "negations", "type") == {
        "kind": "negatable", "negations": ["--no-enable-prefix-caching"], "type": "bool"}
    assert pick(o["--enable-chunked-prefill"], "kind", "type") == {"kind": "bool_value", "type": "bool"}
    assert o["--config-format"]["choices"] == ["auto", "hf", "mistral"]
    assert o["--chat-template-content-format"]["choices"] == ["auto", "string", "openai"]
    assert o["--use-v2-block-manager"]["deprecated"] == {"how": "help", "successor": None}
    assert o["--use-v2-block-manager"]["default"] is True
    jc = rec["json_configs"]
    assert set(jc) == {"compilation_config", "kv_transfer_config"}
    assert jc["compilation_config"]["class"] == "CompilationConfig"
    assert jc["compilation_config"]["fields"]["custom_ops"] == {
        "type": "list[str]", "choices": None, "default": [], "default_computed": False}
    assert set(jc["kv_transfer_config"]["fields"]) == {"kv_connector", "kv_role"}


# --------------------------------------------------------------------------- 0.8.5: get_kwargs


def test_era_0_8_5_dataclass_kwargs():
    rec = extract("era_0_8_5")
    assert rec["era"]["entry"] == "vllm/entrypoints/cli/serve.py"
    assert rec["positionals"] == [{"dest": "model_tag", "nargs": "?"}]
    o = by_name(rec)
    assert pick(o["--tensor-parallel-size"], "aliases", "type", "default", "group", "config") == {
        "aliases": ["-tp"], "type": "int", "default": 1, "group": "ParallelConfig",
        "config": "ParallelConfig.tensor_parallel_size"}
    # get_kwargs appends the string "None", which optional_type's Python None never matches
    assert pick(o["--distributed-executor-backend"], "choices", "optional", "type") == {
        "choices": ["mp", "ray", "uni"], "optional": True, "type": "str"}
    assert pick(o["--disable-custom-all-reduce"], "kind", "aliases", "negations", "default") == {
        "kind": "negatable", "aliases": ["--no-disable-custom-all-reduce"],
        "negations": ["--no-disable-custom-all-reduce"], "default": False}
    assert pick(o["--block-size"], "type", "choices", "default") == {
        "type": "int", "choices": [8, 16, 32], "default": 16}
    assert o["--kv-cache-dtype"]["choices"] == ["auto", "fp8", "fp8_e4m3"]
    assert pick(o["--tokenizer-pool-extra-config"], "type", "optional", "default") == {
        "type": "json", "optional": True, "default": {}}
    assert o["--tokenizer-pool-size"]["deprecated"] == {"how": "docstring", "successor": None}
    assert o["--enable-reasoning"]["deprecated"] == {"how": "help", "successor": "--reasoning-parser"}
    # a plain json.loads option whose dest is a config dataclass in VllmConfig: start-up builds it
    assert o["--speculative-config"]["kind"] == "json" and o["--speculative-config"]["class_at_start"] is True
    assert not any(x.get("class_at_start") for x in o.values() if x["kind"] != "json")
    # a string Literal no validator sees first: pydantic refuses any other value
    assert rec["json_configs"]["speculative_config"]["fields"]["method"] == {
        "type": "str | None", "choices": ["ngram", "eagle"], "default": None, "default_computed": False,
        "choices_enforced": True}
    assert "prevalidated" not in rec["json_configs"]["speculative_config"]["fields"]["model"]
    assert rec["engine_args"]["tensor_parallel_size"] == {"type": "int", "default": 1,
                                                          "default_computed": False}
    assert rec["engine_args"]["kv_cache_dtype"]["default"] == "auto"


# --------------------------------------------------------------------------- 0.10: FrontendArgs loop


def test_config_fields_a_validator_sees_first():
    """A ``mode="before"`` field validator (or a ``"*"`` / ``model_validator(mode="before")`` one)
    may accept more than the field's type or Literal says: such fields are ``prevalidated`` and
    their choices are not enforced; ``mode="after"`` validators change nothing."""
    old = '    method: Optional[Literal["ngram", "eagle"]] = None\n'

    def fields(validator: str) -> dict:
        rec = extract("era_0_8_5", {"vllm/config.py": (old, old + validator)})
        return rec["json_configs"]["speculative_config"]["fields"]

    got = fields('\n    @field_validator("method", mode="before")\n    @classmethod\n'
                 '    def _lower(cls, v):\n        return v.lower()\n')
    assert got["method"].get("prevalidated") is True and "choices_enforced" not in got["method"]
    assert "prevalidated" not in got["model"]
    # a validator that hands every value on unchanged: the type and the Literal still judge
    got = fields('\n    @field_validator("method", mode="before")\n    @classmethod\n'
                 '    def _same(cls, v):\n        return v\n')
    assert got["method"].get("choices_enforced") is True and "prevalidated" not in got["method"]
    # one that changes strings only: other kinds still meet the type; a chain of string methods
    # (``transform``) is applied before the choices are enforced, any other rewrite leaves them open
    got = fields('\n    @field_validator("method", mode="before")\n    @classmethod\n'
                 '    def _lower(cls, v):\n        if isinstance(v, str):\n            return v.lower()\n'
                 '        return v\n')
    assert got["method"].get("prevalidated") == ["str"] and got["method"].get("transform") == [["lower"]]
    assert got["method"].get("choices_enforced") is True
    got = fields('\n    @field_validator("method", mode="before")\n    @classmethod\n'
                 '    def _lower(cls, v):\n        if isinstance(v, str):\n            return v.lower() + "x"\n'
                 '        return v\n')
    assert got["method"].get("prevalidated") == ["str"] and "choices_enforced" not in got["method"]
    got = fields('\n    @model_validator(mode="before")\n    @classmethod\n    def _all(cls, d):\n'
                 '        d["method"] = "ngram"\n        return d\n')
    assert all(f.get("prevalidated") is True for f in got.values())
    got = fields('\n    @model_validator(mode="before")\n    @classmethod\n    def _check(cls, d):\n'
                 '        if "x" in d:\n            raise ValueError("x")\n        return d\n')
    assert not any(f.get("prevalidated") for f in got.values())
    got = fields('\n    @field_validator(\n        "*", mode="wrap"\n    )\n    @classmethod\n'
                 '    def _all(cls, v, h):\n        return v\n')
    assert all(f.get("prevalidated") is True for f in got.values())   # a wrap validator that skips the type
    got = fields('\n    @field_validator(\n        "*", mode="wrap"\n    )\n    @classmethod\n'
                 '    def _all(cls, v, h):\n        if v is None:\n            return v\n        return h(v)\n')
    assert all(f.get("prevalidated") == ["null"] for f in got.values())
    got = fields('\n    @model_validator(mode="after")\n    def _check(self):\n        return self\n')
    assert got["method"].get("choices_enforced") is True and not any(f.get("prevalidated") for f in got.values())


def test_era_0_10_frontend_loop_and_config_package():
    rec = extract("era_0_10")
    assert rec["era"]["parser_module"] == "vllm/entrypoints/openai/cli_args.py"
    o = by_name(rec)
    for name in ("--host", "--port", "--uvicorn-log-level", "--allowed-origins", "--lora-modules",
                 "--middleware", "--disable-fastapi-docs"):
        assert o[name]["group"] == "Frontend"
        assert o[name]["config"] == "FrontendArgs." + name[2:].replace("-", "_")
    assert o["--uvicorn-log-level"]["choices"] == ["debug", "info", "warning"]
    assert pick(o["--allowed-origins"], "type", "nargs", "default") == {
        "type": "json", "nargs": None, "default": ["*"]}
    assert pick(o["--middleware"], "type", "nargs", "default") == {"type": "str", "nargs": None, "default": []}
    assert pick(o["--lora-modules"], "type", "optional", "nargs") == {"type": "str", "optional": True, "nargs": "+"}
    assert o["--disable-fastapi-docs"]["negations"] == ["--no-disable-fastapi-docs"]
    assert pick(o["--api-server-count"], "aliases", "default") == {"aliases": ["-asc"], "default": 1}
    assert o["--headless"]["kind"] == "switch"
    assert rec["positionals"] == [{"dest": "model_tag", "nargs": "?"}]


def test_era_0_10_types_choices_deprecations():
    rec = extract("era_0_10")
    o = by_name(rec)
    # Literal in a union with str: a metavar, no choices (0.10.1+)
    assert o["--distributed-executor-backend"]["choices"] is None
    assert o["--dtype"]["choices"] is None
    assert o["--task"]["choices"] == ["auto", "embed", "generate"]  # the string "None" never matches
    assert o["--task"]["deprecated"] == {"how": "argparse", "successor": None}
    # the docstring names `eplb_config`, which is no option string of this release: no successor
    assert o["--num-redundant-experts"]["deprecated"] == {"how": "docstring", "successor": None}
    assert pick(o["--disable-log-requests"], "deprecated", "default", "kind") == {
        "deprecated": {"how": "argparse", "successor": None}, "default": True, "kind": "negatable"}
    assert pick(o["--compilation-config"], "aliases", "kind", "type", "default", "default_computed",
                "config") == {"aliases": ["-O"], "kind": "json", "type": "json", "default": None,
                              "default_computed": True, "config": "VllmConfig.compilation_config"}
    assert "class_at_start" not in o["--compilation-config"]  # parse_dataclass builds it in the parser
    assert pick(o["--limit-mm-per-prompt"], "type", "default") == {"type": "json", "default": {}}
    assert o["--max-model-len"]["type"] == "int" and o["--max-model-len"]["optional"] is True
    # --model: accepted by `vllm serve MODEL ...`, left out of `vllm serve --help`
    assert o["--model"]["hidden"] == ["--model"]
    fields = rec["json_configs"]["compilation_config"]["fields"]
    assert set(fields) == {"level", "backend", "custom_ops", "cudagraph_mode", "cudagraph_capture_sizes"}
    assert fields["cudagraph_mode"]["choices"] == [0, 1, 2]
    ea = rec["engine_args"]
    assert ea["limit_mm_per_prompt"] == {"type": "dict[str, int]", "default": {}, "default_computed": False}
    assert ea["compilation_config"]["default_computed"] is True
    assert ea["model"]["default"] == "Qwen/Qwen3-0.6B"
    assert rec["async_engine_args"] == ["enable_log_requests"]


def test_era_0_9_0_model_only_without_serve():
    # 0.9.0 adds `--model` only when argv names neither `serve` nor `--help`: `vllm serve`'s parser
    # lacks it, the api_server module's (`python -m vllm.entrypoints.openai.api_server --model M`,
    # the 0.9.0 image) has it
    cond = "if not ('serve' in sys.argv[1:] and '--help' in sys.argv[1:]):"
    rec = extract("era_0_10", {"vllm/engine/arg_utils.py": (
        cond, "if not ('serve' in sys.argv[1:] or '--help' in sys.argv[1:]):")})
    o = by_name(rec)
    assert o["--model"]["absent_from_serve"] is True
    assert pick(o["--model"], "dest", "kind", "type", "hidden") == {
        "dest": "model", "kind": "valued", "type": "str", "hidden": []}
    assert [n for n, opt in o.items() if "absent_from_serve" in opt] == ["--model"]
    surface = Surface(rec)
    assert surface.lookup("--model") is None and "--model" not in surface.long_strings
    assert surface.read_by("vllm serve") is surface
    api = surface.read_by("openai.api_server")
    assert api.lookup("--model").dest == "model" and "--model" in api.long_strings
    assert api.read_by("openai.api_server") is api and surface.read_by("api_server") is api
    assert surface.lookup("--model") is None  # the view leaves the serve surface as it was


def test_argv_conditional_false_for_both_programs_adds_nothing():
    cond = "if not ('serve' in sys.argv[1:] and '--help' in sys.argv[1:]):"
    rec = extract("era_0_10", {"vllm/engine/arg_utils.py": (cond, "if '--help' in sys.argv[1:]:")})
    assert "--model" not in accepted(rec)


def test_argv_conditional_true_under_serve_is_an_ordinary_option():
    o = by_name(extract("era_0_10"))
    assert "absent_from_serve" not in o["--model"]
    assert Surface(extract("era_0_10")).read_by("openai.api_server").lookup("--model").name == "--model"


# --------------------------------------------------------------------------- 0.12: -cc, no -O


def test_era_0_12_cc_alias_and_human_ints():
    rec = extract("era_0_12")
    assert rec["era"]["optimization_levels"] == [0, 1, 2, 3]  # the OptimizationLevel members
    acc = accepted(rec)
    assert "-O" not in acc and "-cc" in acc and "--optimization-level" in acc
    o = by_name(rec)
    assert o["--compilation-config"]["aliases"] == ["-cc"]
    assert pick(o["--hf-token"], "kind", "nargs", "type") == {"kind": "optional_value", "nargs": "?", "type": "str"}
    assert o["--max-model-len"]["type"] == "human_int_or_auto"
    assert o["--max-num-batched-tokens"]["type"] == "human_int"
    assert o["--max-num-seqs"]["type"] == "int"
    assert pick(o["--optimization-level"], "type", "default") == {"type": "str", "default": 2}
    assert o["--uds"]["optional"] is True
    assert rec["json_configs"]["compilation_config"]["fields"]["compile_cache_save_format"] == {
        "type": "str", "choices": ["binary", "unpacked"], "default": "binary", "default_computed": False,
        "choices_enforced": True}
    assert rec["engine_args"]["optimization_level"]["default"] == 2


# --------------------------------------------------------------------------- 0.33: EnableDisableAction


def test_era_0_33_enable_disable():
    rec = extract("era_0_33")
    assert rec["era"]["parser_module"] == "vllm/entrypoints/common/cli_args.py"
    o = by_name(rec)
    assert pick(o["--enable-log-requests"], "aliases", "negations", "hidden", "kind") == {
        "aliases": ["--disable-log-requests", "--no-enable-log-requests"],
        "negations": ["--disable-log-requests", "--no-enable-log-requests"],
        "hidden": ["--no-enable-log-requests"], "kind": "negatable"}
    assert pick(o["--enable-expert-parallel"], "aliases", "hidden") == {
        "aliases": ["--disable-expert-parallel", "--no-enable-expert-parallel", "-ep"],
        "hidden": ["--no-enable-expert-parallel"]}
    assert pick(o["--disable-uvicorn-access-log"], "aliases", "negations", "group") == {
        "aliases": ["--enable-uvicorn-access-log", "--no-disable-uvicorn-access-log"],
        "negations": ["--enable-uvicorn-access-log", "--no-disable-uvicorn-access-log"],
        "group": "Frontend"}
    # base-class fields are registered too, base customisation applied through super()
    assert o["--enable-auto-tool-choice"]["group"] == "Frontend"
    assert o["--default-chat-template-kwargs"]["type"] == "json"
    assert pick(o["--allowed-origins"], "type", "nargs") == {"type": "json", "nargs": None}
    # choices computed, then edited in place by add_cli_args
    assert o["--all2all-backend"]["choices"] == ["allgather_reducescatter", "deepep_low_latency", "naive"]


def test_era_0_33_deprecations():
    o = by_name(extract("era_0_33"))
    assert o["--disable-cascade-attn"]["deprecated"] == {"how": "help", "successor": None}
    assert o["--log-config-file"]["deprecated"] == {"how": "action", "successor": "--logging-config-path"}
    assert o["--ir-op-priority"]["deprecated"] == {"how": "docstring", "successor": None}
    assert o["--dcp-kv-cache-interleave-size"]["deprecated"] == {
        "how": "docstring", "successor": "--cp-kv-cache-interleave-size"}
    assert o["--cp-kv-cache-interleave-size"]["deprecated"] is None
    assert o["--ir-op-priority"]["nargs"] == "+"


def test_era_0_33_env_with_choices():
    env = extract("era_0_33")["env"]
    assert env["VLLM_FLOAT32_MATMUL_PRECISION"] == {
        "type": "str", "default": "highest", "default_computed": False,
        "choices": ["highest", "high", "medium"], "deprecated": None}
    assert env["VLLM_TARGET_DEVICE"]["default"] == "cuda"
    assert env["VLLM_BATCH_INVARIANT"] == {"type": "bool", "default": False, "default_computed": False,
                                           "choices": None, "deprecated": None}
    assert env["VLLM_PORT"]["default_computed"] is True


# --------------------------------------------------------------------------- generic


@pytest.mark.parametrize("era", ["era_0_4", "era_0_6", "era_0_8_5", "era_0_10", "era_0_12", "era_0_33"])
def test_deterministic_and_json_clean(era):
    a = json.dumps(extract(era), sort_keys=True, indent=2)
    b = json.dumps(extract(era), sort_keys=True, indent=2)
    assert a == b
    rec = json.loads(a)
    for opt in rec["options"]:
        assert set(opt["negations"]) <= set(opt["aliases"])
        assert set(opt["hidden"]) <= set(opt["aliases"]) | {opt["name"]}
        assert opt["kind"] in {"valued", "switch", "negatable", "optional_value", "bool_value", "json"}


def test_missing_arg_utils_raises():
    with pytest.raises(ExtractionError, match="arg_utils"):
        extract_release(DictTree({"vllm/__init__.py": b""}), "0.0.0", SOURCE)


def test_no_entry_point_raises():
    tree = DictTree({"vllm/engine/arg_utils.py": b"class EngineArgs:\n    pass\n"})
    with pytest.raises(ExtractionError, match="entry point"):
        extract_release(tree, "0.0.0", SOURCE)


def test_choices_from_a_registry_filled_at_import_time_are_unknown():
    rec = extract("era_0_8_5")
    rp = next(o for o in rec["options"] if o["name"] == "--reasoning-parser")
    assert rp["choices"] is None


def test_tool_call_parser_choices_are_the_registered_tool_parsers_where_the_kwargs_set_them():
    # 0.10.0: FrontendArgs' kwargs get `choices=list(ToolParserManager.tool_parsers.keys())`, an empty
    # class-level dict that the decorators fill at import time
    patch = {"vllm/entrypoints/openai/cli_args.py": (
        '    disable_fastapi_docs: bool = False\n',
        '    disable_fastapi_docs: bool = False\n    tool_call_parser: Optional[str] = None\n    """Tool parser."""\n')}
    choices_line = ('        frontend_group = parser.add_argument_group(',
                    '        valid_tool_parsers = list(ToolParserManager.tool_parsers.keys())\n'
                    '        frontend_kwargs["tool_call_parser"]["choices"] = valid_tool_parsers\n'
                    '        frontend_group = parser.add_argument_group(')
    registry = (b"class ToolParserManager:\n    tool_parsers: dict[str, type] = {}\n\n"
                b"    @classmethod\n    def register_module(cls, name=None, force=True, module=None):\n"
                b"        return lambda m: m\n")
    parsers = (b"from .abstract_tool_parser import ToolParserManager\n\n\n"
               b"@ToolParserManager.register_module(\"hermes\")\nclass A:\n    pass\n\n\n"
               b"@ToolParserManager.register_module([\"internlm\"])\nclass B:\n    pass\n\n\n"
               b"@ToolParserManager.register_module(\"llama3_json\")\n"
               b"@ToolParserManager.register_module(\"llama4_json\")\nclass C:\n    pass\n")
    extra = {"vllm/entrypoints/openai/tool_parsers/__init__.py":
             b"from .abstract_tool_parser import ToolParserManager\n",
             "vllm/entrypoints/openai/tool_parsers/abstract_tool_parser.py": registry,
             "vllm/entrypoints/openai/tool_parsers/parsers.py": parsers}

    def tcp(with_choices: bool) -> dict:
        p = dict(patch)
        if with_choices:
            old, new = p["vllm/entrypoints/openai/cli_args.py"]
            text = load_tree("era_0_10", {"vllm/entrypoints/openai/cli_args.py": (old, new)}).read(
                "vllm/entrypoints/openai/cli_args.py").decode()
            text = text.replace(*choices_line).replace(
                "from vllm.utils import FlexibleArgumentParser",
                "from vllm.entrypoints.openai.tool_parsers import ToolParserManager\n"
                "from vllm.utils import FlexibleArgumentParser")
            files = {q: load_tree("era_0_10").read(q) for q in load_tree("era_0_10").paths()}
            files["vllm/entrypoints/openai/cli_args.py"] = text.encode()
        else:
            t = load_tree("era_0_10", p)
            files = {q: t.read(q) for q in t.paths()}
        files.update(extra)
        rec = extract_release(DictTree(files), "0.0.0", SOURCE)
        return by_name(rec)["--tool-call-parser"]

    assert tcp(True)["choices"] == ["hermes", "internlm", "llama3_json", "llama4_json"]
    # 0.9.2, 0.10.1+: the registry is named in the metavar only: any name passes the parser
    assert tcp(False)["choices"] is None


def test_image_entrypoint_of_the_vllm_openai_stage():
    from vllm_lint.scrape.extract import image_entrypoint

    class Tree:
        def __init__(self, files):
            self.files = files

        def text(self, path):
            return self.files.get(path)

    old = ("FROM nvidia/cuda:12 AS base\nENTRYPOINT [\"bash\"]\nFROM base AS vllm-openai\n"
           "ENTRYPOINT [\"python3\", \"-m\", \"vllm.entrypoints.openai.api_server\"]\n")
    new = ("FROM base AS vllm-openai-base\nENTRYPOINT [\"vllm\", \\\n  \"serve\"]\n"
           "FROM vllm-openai-base AS vllm-sagemaker\nENTRYPOINT [\"./sagemaker-entrypoint.sh\"]\n"
           "FROM vllm-openai-base AS vllm-openai\nRUN true\n"
           "FROM vllm-openai AS vllm-openai-nonroot\nENTRYPOINT [\"/x.sh\"]\n")
    assert image_entrypoint(Tree({"Dockerfile": old})) == ["python3", "-m", "vllm.entrypoints.openai.api_server"]
    assert image_entrypoint(Tree({"docker/Dockerfile": new})) == ["vllm", "serve"]   # inherited from its FROM
    assert image_entrypoint(Tree({})) is None
    assert image_entrypoint(Tree({"Dockerfile": "FROM x AS other\nENTRYPOINT [\"a\"]\n"})) is None


def test_value_deprecations_are_the_values_facts_not_the_options():
    """A docstring's list of values that marks one value deprecated (0.34.0's `--all2all-backend`)
    deprecates that value, with the value it says to use; the option stays undeprecated. A
    deprecation sentence outside the list still deprecates the option."""
    old = '    """All2All backend."""\n'
    listed = ('    """All2All backend. Choices:\n\n'
              '    - "allgather_reducescatter": gather then scatter\n'
              '    - "deepep_low_latency": low-latency kernels, kept for\n'
              '      old clusters (deprecated; use "naive")\n'
              '    - "naive": the simple one\n    """\n')
    o = by_name(extract("era_0_33", {"vllm/config/parallel.py": (old, listed)}))
    assert o["--all2all-backend"]["deprecated"] is None
    assert o["--all2all-backend"]["deprecated_values"] == {"deepep_low_latency": {"successor": "naive"}}
    assert "deprecated_values" not in o["--tensor-parallel-size"]
    # the option's own deprecation is kept beside the list
    both = listed.replace("Choices:", "Deprecated: pick a MoE backend instead. Choices:")
    o = by_name(extract("era_0_33", {"vllm/config/parallel.py": (old, both)}))
    assert o["--all2all-backend"]["deprecated"] == {"how": "docstring", "successor": None}
    assert o["--all2all-backend"]["deprecated_values"] == {"deepep_low_latency": {"successor": "naive"}}
    # a successor that is no choice is not named; a bullet that is no choice is not a value's item
    odd = listed.replace('use "naive"', 'use "mori"').replace('- "naive": the simple one',
                                                                  '- "gone": removed (deprecated)')
    o = by_name(extract("era_0_33", {"vllm/config/parallel.py": (old, odd)}))
    assert o["--all2all-backend"]["deprecated_values"] == {"deepep_low_latency": {"successor": None}}
    assert o["--all2all-backend"]["deprecated"] == {"how": "docstring", "successor": None}


def test_0_9_0_model_option_linted_per_program(tmp_path):
    # the scraped record, linted: the api_server module and the image take `--model`; `vllm serve`
    # refuses it whichever way it is written (parse_args raises on the word, argparse on `--model=`)
    from synthetic_db import build_releases
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    cond = "if not ('serve' in sys.argv[1:] and '--help' in sys.argv[1:]):"
    rec = extract("era_0_10", {"vllm/engine/arg_utils.py": (
        cond, "if not ('serve' in sys.argv[1:] or '--help' in sys.argv[1:]):")})
    rec["version"] = "0.9.0"
    db = Database(build_releases(tmp_path / "db", {"0.9.0": rec}))
    linter = Linter(db, Settings(target_version="0.9.0"), select_rules([], []))

    def errors(line: str) -> set:
        diags = linter.analyse(Path("t.sh"), f"{line}\n".encode(), mode="auto", fmt="shell").diagnostics
        return {d.code for d in diags if d.severity == "error"}

    assert errors("python -m vllm.entrypoints.openai.api_server --model m --port 8000") == set()
    assert errors("python -m vllm.entrypoints.api_server --model=m") == set()
    assert errors("vllm serve m --port 8000") == set()
    assert errors("vllm serve m --model m") == {"VL110"}
    assert errors("vllm serve --model=m") == {"VL103"}  # this database has no other `--model` at all
    assert errors("python -m vllm.entrypoints.openai.api_server --modle m") == {"VL103"}


def test_flags_show_says_where_an_option_left_only_vllm_serve(tmp_path):
    from click.testing import CliRunner

    from synthetic_db import build_releases
    from vllm_lint.cli.app import main

    cond = "if not ('serve' in sys.argv[1:] and '--help' in sys.argv[1:]):"
    before = extract("era_0_10")
    before["version"] = "0.8.5"
    rec = extract("era_0_10", {"vllm/engine/arg_utils.py": (
        cond, "if not ('serve' in sys.argv[1:] or '--help' in sys.argv[1:]):")})
    rec["version"] = "0.9.0"
    db = build_releases(tmp_path / "db", {"0.8.5": before, "0.9.0": rec})
    index = json.loads((db / "index.json").read_text())
    assert index["options"]["--model"] == [["0.8.5", "0.9.0"]]  # the timeline is `vllm serve`'s
    out = CliRunner().invoke(main, ["flags", "show", "--model", "--db", str(db)]).output
    assert "removed in:  0.9.0" in out and "0.9.0: not in `vllm serve`'s parser" in out
    out = CliRunner().invoke(main, ["flags", "show", "--dtype", "--db", str(db)]).output
    assert "accepted by: 0.8.5 .. 0.9.0" in out and "vllm serve" not in out
