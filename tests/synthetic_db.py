"""A small synthetic flag database (three releases) for engine and rule tests, written in the
schema of flag_db/README.md. Facts are modelled on real vLLM history but kept tiny."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from vllm_lint.surface.db import compile_index, write_json


def opt(name, aliases=(), kind="valued", type="str", default=None, choices=None, nargs=None,
        negations=(), deprecated=None, dest=None, group=None, optional=False, default_computed=False):
    return {"name": name, "aliases": list(aliases), "negations": list(negations), "hidden": [],
            "dest": dest or name.lstrip("-").replace("-", "_"), "kind": kind, "type": type,
            "optional": optional, "nargs": nargs, "choices": choices, "default": default,
            "default_computed": default_computed, "group": group, "config": None, "deprecated": deprecated}


BASE = [
    opt("--model", default="facebook/opt-125m"),
    opt("--tensor-parallel-size", ["-tp"], type="int", default=1, group="ParallelConfig"),
    opt("--pipeline-parallel-size", ["-pp"], type="int", default=1),
    opt("--dtype", choices=["auto", "bfloat16", "float16", "half"], default="auto"),
    opt("--enforce-eager", ["--no-enforce-eager"], kind="negatable", type=None, default=False,
        negations=["--no-enforce-eager"]),
    opt("--max-model-len", type="human_int_or_auto", optional=True),
    opt("--max-num-seqs", type="int", optional=True),
    opt("--max-num-batched-tokens", type="human_int", optional=True),
    opt("--gpu-memory-utilization", type="float", default=0.9),
    opt("--port", type="int", default=8000),
    opt("--host", optional=True),
    opt("--served-model-name", nargs="+"),
    opt("--quantization", ["-q"], choices=["awq", "fp8", "gptq", "None"], optional=True),
    opt("--config", default=""),
]

V085 = BASE + [
    opt("--swap-space", type="float", default=4),
    opt("--num-scheduler-steps", type="int", default=1),
    opt("--cuda-graph-sizes", type="int", nargs="+", default=[512]),
    opt("--compilation-config", ["-O"], kind="json", type="json", dest="compilation_config"),
    opt("--guided-decoding-backend", default="xgrammar"),
]
V0100 = BASE + [
    opt("--swap-space", type="float", default=4),
    opt("--cuda-graph-sizes", type="int", nargs="+",
        deprecated={"how": "argparse", "successor": "--cudagraph-capture-sizes"}),
    opt("--cudagraph-capture-sizes", type="int", nargs="+"),
    opt("--compilation-config", ["-O"], kind="json", type="json"),
    opt("--guided-decoding-backend", deprecated={"how": "help", "successor": None}),
    # deprecated with no effect (the overlay's noop_since), removed after 0.10.0
    opt("--tokenizer-pool-size", type="int", default=0, deprecated={"how": "docstring", "successor": None}),
    opt("--structured-outputs-config", kind="json", type="json"),
    opt("--async-scheduling", ["--no-async-scheduling"], kind="negatable", type=None, default=False,
        negations=["--no-async-scheduling"]),
    # a choice deprecated in favour of another (0.34.0's --all2all-backend), refused at 0.27.1
    dict(opt("--all2all-backend", choices=["allgather_reducescatter", "mori", "mori_high_throughput"],
             default="allgather_reducescatter"), deprecated_values={"mori_high_throughput": {"successor": "mori"}}),
]
V0271 = BASE + [
    opt("--cudagraph-capture-sizes", type="int", nargs="+"),
    opt("--compilation-config", ["-cc"], kind="json", type="json"),
    opt("--optimization-level", type="int", default=2),
    opt("--structured-outputs-config", kind="json", type="json"),
    opt("--async-scheduling", ["--no-async-scheduling"], kind="negatable", type=None, default=None,
        negations=["--no-async-scheduling"]),
    opt("--max-num-partial-prefills-x", type="int"),  # makes "--max-num" prefixes richer
    opt("--all2all-backend", choices=["allgather_reducescatter", "mori"], default="allgather_reducescatter"),
    opt("--device-ids"),  # resolved through the platform at start (rec["device_id_checks"])
    opt("--data-parallel-backend", ["-dpb"], default="mp"),  # ParallelConfig's Literal (rec["start_fields"])
    opt("--additional-config", type="dict_or_str", default={}),  # VllmConfig takes a mapping (rec["start_fields"])
    opt("--show-hidden-metrics-for-version", optional=True),  # ObservabilityConfig parses a version (start_fields)
    opt("--reasoning-effort-map", type="json", optional=True),  # validate_parsed_serve_args reads its value
    opt("--quantization-config", kind="json", type="json"),  # names its nested fields look up (keys' names)
    opt("--enforce", type="int"),  # only here: at 0.10.0 `--enforce` abbreviates --enforce-eager (VL107)
    opt("--numa-bind-cpus", nargs="+", optional=True),  # ParallelConfig's after validator (start_fields items)
    # the platform adds its device type to the choices (0.28+, choices_platform)
    dict(opt("--mm-processor-device", choices=["auto", "cpu"], default="auto"), choices_platform=True),
]

JSON_CONFIGS = {
    "compilation_config": {"class": "CompilationConfig", "fields": {
        "level": {"type": "int", "default": None}, "mode": {"type": "int", "default": None},
        "cudagraph_capture_sizes": {"type": "list[int]", "default": None},
        # a nested config class that forbids every other key (fields.<key>.keys)
        "dynamic_shapes_config": {"type": "DynamicShapesConfig", "default": None, "object": True,
                                  "keys": ["evaluate_guards", "type"]},
        # one a validator of the class sees first: its keys are the validator's to judge
        "pass_config": {"type": "PassConfig", "default": None, "object": True, "prevalidated": ["object"],
                        "keys": ["fuse_norm_quant"]}}},
    # a field that takes a name or an object of a nested class, and the names each takes
    "quantization_config": {"class": "QuantizationConfigArgs", "fields": {
        **{k: {"type": "QuantSpec | None", "default": None, "object": True, "prevalidated": ["str"],
               "keys": ["activation", "weight"], "names": sorted(["fp8_per_tensor", "mxfp8", "fp8_per_token"]
                                                                  + (["int8_weight_only"] if k == "moe" else [])),
               "key_names": {"activation": ["fp8_per_token", "mxfp8"], "weight": ["fp8_per_token", "mxfp8"]}}
           for k in ("linear", "moe")},
        "ignore": {"type": "list[str]", "default": []}}},
    "structured_outputs_config": {"class": "StructuredOutputsConfig", "fields": {
        "backend": {"type": "str", "default": "auto"}, "disable_fallback": {"type": "bool", "default": False}}},
}

# what a config class's field types and simple validators refuse (issue 29, sixth pass): a string a
# before validator rewrites before its Literal judges it, a key the class requires, an object keyed
# by an enum's values, a check over each item of a list, a list of the fields set off their defaults
V0271 += [opt("--kernel-config", kind="json", type="json"),
          opt("--attention-config", ["-ac"], kind="json", type="json"),
          dict(opt("--watermark-config", kind="json", type="json"), class_at_start=True),
          opt("--profiler-config", kind="json", type="json"),
          opt("--custom-histogram-buckets", type="json", optional=True),  # start_fields: json_type
          opt("--collect-detailed-traces", nargs="+", optional=True,  # start_fields: item_choices
              choices=["all", "model", "worker", "None", "model,worker", "worker,model"])]
#: what start-up's config classes refuse in those options' values (rec["start_fields"], added in build)
START_FIELDS_TYPES = {
    "custom_histogram_buckets": {"class": "ObservabilityConfig", "option": "--custom-histogram-buckets",
                                 "json_type": "dict[str, list[float]] | None"},
    "collect_detailed_traces": {"class": "ObservabilityConfig", "option": "--collect-detailed-traces",
                                "item_choices": ["model", "worker", "all"]}}
JSON_CONFIGS["compilation_config"]["fields"]["custom_ops"] = {"type": "list[str]", "default": []}
JSON_CONFIGS["compilation_config"]["checks"] = [
    {"kind": "when", "each": "custom_ops", "when": [
        {"dest": "custom_ops", "item": "value", "test": "not_in", "values": ["all", "none"], "option": "custom_ops"},
        {"dest": "custom_ops", "item": "len", "test": "<", "value": 2, "option": "custom_ops"}]},
    {"kind": "when", "each": "custom_ops", "when": [
        {"dest": "custom_ops", "item": "value", "test": "not_in", "values": ["all", "none"], "option": "custom_ops"},
        {"dest": "custom_ops", "item": "first", "test": "not_in", "values": ["+", "-"], "option": "custom_ops"}]}]
JSON_CONFIGS["quantization_config"]["fields"]["targets"] = {
    "type": "dict[str, str | QuantSpec] | None", "default": None, "prevalidated": True,
    "item_names": ["fp8_per_tensor", "mxfp4"], "item_keys": ["activation", "weight"],
    "item_key_names": {"activation": ["fp8_per_token", "mxfp8"], "weight": ["fp8_per_token", "mxfp8"]}}
JSON_CONFIGS.update({
    "kernel_config": {"class": "KernelConfig", "extra": "forbid", "fields": {
        "moe_backend": {"type": "str", "default": "auto", "choices": ["auto", "triton", "deep_gemm"],
                        "choices_enforced": True, "prevalidated": ["str"],
                        "transform": [["lower"], ["replace", "-", "_"]]},
        "ir_op_priority": {"type": "IrOpPriorityConfig", "default": None, "default_computed": True, "object": True,
                           "keys": ["rms_norm", "silu_and_mul"]}}},
    "attention_config": {"class": "AttentionConfig", "extra": "forbid", "fields": {
        "mla_prefill_backend": {"type": "MLAPrefillBackendEnum | None", "default": None, "prevalidated": ["str"],
                                "choices": ["a.FlashAttn", "b.FlashInfer"],
                                "enum_names": {"names": ["FLASH_ATTN", "FLASHINFER"], "case": "upper"}},
        "backend_per_kind": {"type": "dict[str, AttentionBackendEnum]", "default": {}, "prevalidated": True,
                             "key_values": ["full_attention", "mla_attention"],
                             "value_names": {"names": ["FLASH_ATTN", "TRITON_MLA"], "case": "upper"}}}},
    "watermark_config": {"class": "WatermarkConfig", "extra": "forbid", "fields": {
        "key": {"type": "int", "default": None, "default_computed": True, "required": True, "constraints": {"ge": 0}},
        "enforce": {"type": "bool", "default": False}}},
    "profiler_config": {"class": "ProfilerConfig", "extra": "forbid", "fields": {
        "profiler": {"type": "str | None", "default": None, "choices": ["torch", "proton"], "choices_enforced": True},
        "proton_data": {"type": "str", "default": "tree", "choices": ["tree", "trace"], "choices_enforced": True},
        "proton_output_format": {"type": "str | None", "default": None, "choices": ["hatchet", "chrome_trace"],
                                 "choices_enforced": True}},
        "checks": [{"kind": "when", "when": [
            {"dest": "profiler", "test": "!=", "value": "proton", "option": "profiler"},
            {"dest": name, "test": "!=", "value": default, "option": name}]}
            for name, default in (("proton_data", "tree"), ("proton_output_format", None))]},
})


def _record(version, options, env, engine_extra=(), drop_json=()):
    engine = {o["dest"]: {"type": o["type"], "default": o["default"], "default_computed": False}
              for o in options if o["dest"] not in ("model_tag",)}
    for f in engine_extra:
        engine[f] = {"type": "str", "default": None, "default_computed": False}
    jc = {k: v for k, v in JSON_CONFIGS.items() if any(o["dest"] == k for o in options)}
    return {"schema": 1, "version": version, "source": {"kind": "synthetic"},
            "era": {"parser_module": "x", "entry": "y",
                    # the vllm-openai image's ENTRYPOINT (VL111): the api_server module, `vllm serve` from 0.12
                    "image_entrypoint": ["vllm", "serve"] if tuple(map(int, version.split("."))) >= (0, 12)
                    else ["python3", "-m", "vllm.entrypoints.openai.api_server"]},
            "options": sorted(copy.deepcopy(options), key=lambda o: o["name"]),
            "positionals": [{"dest": "model_tag", "nargs": "?"}],
            "engine_args": engine, "async_engine_args": [], "llm_params": ["model", "tokenizer"],
            "json_configs": jc, "env": env}


def env(*names, deprecated=()):
    return {n: {"type": "str", "default": None, "default_computed": False, "choices": None,
                "deprecated": {"successor": None} if n in deprecated else None} for n in names}


OVERLAY = {
    "options": {
        "--cuda-graph-sizes": {"successor": "--cudagraph-capture-sizes", "safe": True, "evidence": "test"},
        "--swap-space": {"successor": None, "noop_at_removal": True, "evidence": "test"},
        "--tokenizer-pool-size": {"successor": None, "noop_at_removal": True, "noop_since": "0.10.0",
                                  "evidence": "test"},
        "--guided-decoding-backend": {"successor": "--structured-outputs-config.backend", "safe": True,
                                      "evidence": "test"},
    },
    "env": {"VLLM_ATTENTION_BACKEND": {"successor": "--attention-backend", "evidence": "test"}},
}


def build(path: Path) -> Path:
    rel = path / "releases"
    rel.mkdir(parents=True, exist_ok=True)
    write_json(rel / "0.8.5.json", _record("0.8.5", V085, env("VLLM_USE_V1", "VLLM_ATTENTION_BACKEND", "VLLM_HOST_IP")))
    write_json(rel / "0.10.0.json", _record("0.10.0", V0100, env("VLLM_USE_V1", "VLLM_ATTENTION_BACKEND", "VLLM_HOST_IP",
                                                                  "VLLM_MARLIN_INPUT_DTYPE", "VLLM_USE_V2_MODEL_RUNNER",
                                                                  deprecated=("VLLM_ATTENTION_BACKEND",))))
    rec = _record("0.27.1", V0271, env("VLLM_HOST_IP", "VLLM_NEW_THING"))
    # what start-up refuses (0.34.0's validate_environ): a removed name with its migration, and a
    # name refused for every value but one, which it ignores
    rec["env_refused"] = {
        "VLLM_MARLIN_INPUT_DTYPE": {"refused": "any", "migration": {"options": [["--quantization", "fp8"]],
                                                                   "env": ["VLLM_HOST_IP"]}},
        "VLLM_USE_V2_MODEL_RUNNER": {"refused": "except", "values": ["1"], "ignored": ["1"]},
    }
    rec["device_id_checks"] = [{"dest": "device_ids", "option": "--device-ids", "method": "_resolve_device_ids",
                                "items": "comma_digits", "checks": ["not_mixed", "platform_ids", "unique"]}]
    rec["start_fields"] = {"data_parallel_backend": {"class": "ParallelConfig", "option": "--data-parallel-backend",
                                                     "choices": ["ray", "mp"]},
                           "additional_config": {"class": "VllmConfig", "option": "--additional-config",
                                                 "mapping": True},
                           "show_hidden_metrics_for_version": {"class": "ObservabilityConfig", "version": True,
                                                               "option": "--show-hidden-metrics-for-version"},
                           "numa_bind_cpus": {"class": "ParallelConfig", "option": "--numa-bind-cpus", "items": {
                               "nonempty": True, "ascending": True,
                               "pattern": "^\\d+(?:-\\d+)?(?:,\\d+(?:-\\d+)?)*$"}}}
    rec["start_fields"].update(START_FIELDS_TYPES)
    # validate_parsed_serve_args checks one option's value by itself (0.33+: serve_checks.values)
    rec["serve_checks"] = {"function": "x", "entries": ["openai.api_server", "vllm serve"], "checks": [],
                           "values": {"reasoning_effort_map": {"option": "--reasoning-effort-map", "object": True,
                                                               "values": "str", "keys": ["low", "medium", "high"]}}}
    write_json(rel / "0.27.1.json", rec)
    (path / "overlays").mkdir(exist_ok=True)
    write_json(path / "overlays" / "renames.json", OVERLAY)
    compile_index(path)
    build_plugins(path)
    return path


def build_plugins(path: Path) -> None:
    """Three platform plugins' releases (``flag_db/plugins/``), with a few variables of each."""
    from vllm_lint.scrape.plugins import write_plugin_index

    releases = {("vllm-spyre", "1.10.0"): ("VLLM_SPYRE_USE_CB", "VLLM_SPYRE_WARMUP_BATCH_SIZES"),
                ("vllm-ascend", "0.23.0"): ("VLLM_ASCEND_ENABLE_MLAPO", "MAX_JOBS"),
                # a variable the later release dropped (the plugin's own timeline, VL201)
                ("vllm-gaudi", "0.24.0"): ("VLLM_LINEAR_BUCKETING", "VLLM_PROMPT_BS_BUCKET_MIN"),
                ("vllm-gaudi", "0.26.0"): ("VLLM_PROMPT_BS_BUCKET_MIN",)}
    for (dist, version), names in releases.items():
        folder = path / "plugins" / dist
        folder.mkdir(parents=True, exist_ok=True)
        write_json(folder / f"{version}.json", {"schema": 1, "plugin": dist, "version": version, "vllm": None,
                                               "env": env(*names)})
    write_plugin_index(path / "plugins")


def build_releases(path: Path, releases: dict) -> Path:
    """A database of the given ``{version: record}`` (records from :func:`_record`), no renames."""
    (path / "releases").mkdir(parents=True, exist_ok=True)
    for v, rec in releases.items():
        write_json(path / "releases" / f"{v}.json", rec)
    (path / "overlays").mkdir(exist_ok=True)
    write_json(path / "overlays" / "renames.json", {"options": {}, "env": {}})
    compile_index(path)
    return path



def vl1_findings(linter, line: str) -> set:
    """{(code, severity)} of the VL1xx findings of ``linter`` for ``vllm serve <line>``."""
    diags = linter.analyse(Path("t.sh"), f"vllm serve {line}\n".encode(), mode="auto", fmt="shell").diagnostics
    return {(d.code, d.severity) for d in diags if d.code.startswith("VL1")}


def disagreements(linters: dict, cases) -> list:
    """The ``(version, line, want)`` cases whose VL1xx findings differ, with what was found."""
    wrong = []
    for version, line, want in cases:
        got = vl1_findings(linters[version], line)
        if got != want:
            wrong.append((version, line, sorted(got), sorted(want)))
    return wrong
