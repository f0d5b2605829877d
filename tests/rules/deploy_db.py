"""A synthetic flag database for the deployment anti-pattern rules (VL3xx/VL4xx/VL5xx): the releases
whose boundaries these rules gate on, with only the options and variables the rules read. Facts
are modelled on vLLM's history (see docs/antipatterns.md); kept small and independent of the
shipped database, which changes as releases are scraped."""

from __future__ import annotations

import sys
from pathlib import Path

from packaging.version import Version

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from synthetic_db import _record, env, opt  # noqa: E402

from vllm_lint.surface.db import compile_index, write_json  # noqa: E402

VERSIONS = ["0.8.4", "0.8.5", "0.10.0", "0.11.0", "0.11.1", "0.12.0", "0.14.1", "0.15.0", "0.16.0",
            "0.17.0", "0.23.0", "0.24.0", "0.27.1", "0.34.0"]


def _v(s):
    return Version(s)


def options(version: str) -> list[dict]:
    v = _v(version)
    o = [
        opt("--model", default="facebook/opt-125m"),
        opt("--served-model-name", nargs="+"),
        opt("--tensor-parallel-size", ["-tp"], type="int", default=1),
        opt("--pipeline-parallel-size", ["-pp"], type="int", default=1),
        opt("--data-parallel-size", ["-dp"], type="int", default=1),
        # 0.34.0: None, decided at start (1.0 with the extensible KV cache, else 0.92)
        opt("--gpu-memory-utilization", type="float", default=0.9 if v < _v("0.34.0") else None,
            optional=v >= _v("0.34.0")),
        opt("--max-model-len", type="human_int_or_auto", optional=True),
        opt("--api-key", optional=True),
        opt("--trust-remote-code", kind="switch", type=None, default=False),
        opt("--revision", optional=True),
        opt("--code-revision", optional=True),
        opt("--enforce-eager", ["--no-enforce-eager"], kind="negatable", type=None, default=False,
            negations=["--no-enforce-eager"]),
        opt("--distributed-executor-backend", optional=True),
        opt("--hf-overrides", kind="json", type="json"),
        opt("--override-generation-config", kind="json", type="json"),
        opt("--allowed-local-media-path", default=""),
        opt("--port", type="int", default=8000),
        opt("--enable-lora", kind="switch", type=None, default=False),
        opt("--cpu-offload-gb", type="float", default=0),
        opt("--dtype", default="auto"),
        opt("--quantization", ["-q"], optional=True),
        opt("--kv-cache-dtype", default="auto"),
    ]
    if v >= _v("0.8.5"):
        o.append(opt("--enable-expert-parallel", ["--no-enable-expert-parallel"] + (["-ep"] if v >= _v("0.23.0") else []),
                     kind="negatable", type=None, default=False, negations=["--no-enable-expert-parallel"]))
    if v >= _v("0.24.0"):
        o.append(opt("--decode-context-parallel-size", ["-dcp"], type="int", default=1))
    if v >= _v("0.10.0"):
        o += [opt("--data-parallel-size-local", ["-dpl"], type="int", optional=True),
              opt("--enable-eplb", ["--no-enable-eplb"], kind="negatable", type=None, default=False,
                  negations=["--no-enable-eplb"]),
              opt("--async-scheduling", ["--no-async-scheduling"], kind="negatable", type=None,
                  default=None if v >= _v("0.14.0") else False, negations=["--no-async-scheduling"]),
              opt("--speculative-config", kind="json", type="json"),
              opt("--headless", kind="switch", type=None, default=False)]
    if v >= _v("0.11.0"):
        o += [opt("--decode-context-parallel-size", ["-dcp"], type="int", default=1),
              opt("--eplb-config", kind="json", type="json"),
              opt("--all2all-backend", default="allgather_reducescatter",
                  choices=["allgather_reducescatter", "deepep_high_throughput", "deepep_low_latency", "naive", "pplx"])]
    if v >= _v("0.12.0"):
        o += [opt("--optimization-level", type="int", default=2),
              opt("--compilation-config", ["-cc"], kind="json", type="json")]
    else:
        o.append(opt("--compilation-config", ["-O"], kind="json", type="json"))
    if v >= _v("0.23.0"):
        o.append(opt("--nnodes", ["-n"], type="int", default=1))
    # the options of validate_parsed_serve_args' checks (serve_checks below, VL112)
    o += [opt("--config", default=""), opt("--disable-log-stats", kind="switch", type=None, default=False)]
    if v >= _v("0.10.0"):
        o += [opt("--enable-auto-tool-choice", ["--no-enable-auto-tool-choice"], kind="negatable", type=None,
                  default=False, negations=["--no-enable-auto-tool-choice"]),
              opt("--tool-call-parser"), opt("--reasoning-parser", default="")]
    else:
        o += [opt("--enable-auto-tool-choice", kind="switch", type=None, default=False),
              opt("--tool-call-parser"), opt("--enable-reasoning", kind="switch", type=None, default=False),
              opt("--reasoning-parser")]
    if v >= _v("0.11.0"):
        o += [opt(f"--enable-log-{x}", [f"--no-enable-log-{x}"], kind="negatable", type=None, default=False,
                  negations=[f"--no-enable-log-{x}"]) for x in ("outputs", "requests")]
    if v >= _v("0.25.0"):
        o.append(opt("--enable-per-request-metrics", ["--no-enable-per-request-metrics"], kind="negatable",
                     type=None, default=False, negations=["--no-enable-per-request-metrics"]))
    if v >= _v("0.24.0"):  # ParallelConfig's after validator refuses a negative node (start_fields items)
        o += [opt("--numa-bind", ["--no-numa-bind"], kind="negatable", type=None, default=False,
                  negations=["--no-numa-bind"]), opt("--numa-bind-nodes", type="int", nargs="+", optional=True)]
    if _v("0.24.0") <= v < _v("0.34.0"):  # EngineArgs.__post_init__'s resolver (config_checks, VL112)
        o.append(opt("--quantization-config", kind="json", type="json"))
    if v >= _v("0.34.0"):  # refused unless VLLM_USE_RUST_FRONTEND is on (serve_checks, VL112)
        o += [opt("--grpc-port", type="int", optional=True), opt("--grpc", kind="switch", type=None, default=False)]
    if v >= _v("0.34.0"):
        o.append(opt("--enable-extensible-kv-cache", ["--disable-extensible-kv-cache", "--no-enable-extensible-kv-cache"],
                     kind="negatable", type="bool", default=None,
                     negations=["--disable-extensible-kv-cache", "--no-enable-extensible-kv-cache"]))
        o.append(opt("--kv-cache-memory-bytes", type="human_int", optional=True))
    return o


def _check(kind: str, a: str, b: str) -> dict:
    return {"kind": kind, "dests": [a, b], "options": ["--" + a.replace("_", "-"), "--" + b.replace("_", "-")]}


def serve_checks(version: str) -> dict:
    """The pairs of vLLM's ``validate_parsed_serve_args`` at ``version`` (flag_db/README.md)."""
    v = _v(version)
    checks = [_check("requires", "enable_auto_tool_choice", "tool_call_parser")]
    if v < _v("0.9.0"):
        checks.append(_check("requires", "enable_reasoning", "reasoning_parser"))
    if v >= _v("0.11.0"):
        checks.append(_check("requires", "enable_log_outputs", "enable_log_requests"))
    if v >= _v("0.25.0"):
        checks.append(_check("conflicts", "enable_per_request_metrics", "disable_log_stats"))
    if v >= _v("0.34.0"):  # validate_grpc_port_arg: a test of an environment variable's truth
        grpc = {"dest": "grpc_port", "option": "--grpc-port", "test": "not_none"}
        checks += [{"kind": "when", "when": [grpc, {"dest": "grpc", "option": "--grpc", "test": "set"}]},
                   {"kind": "when", "when": [grpc, {"dest": "env:VLLM_USE_RUST_FRONTEND",
                                                    "env": "VLLM_USE_RUST_FRONTEND", "test": "unset"}]},
                   {"kind": "when", "when": [grpc, {"dest": "subparser", "test": "!=", "value": "serve"}]}]
    return {"function": "vllm/entrypoints/openai/cli_args.py", "entries": ["openai.api_server", "vllm serve"],
            "checks": checks}


def env_vars(version: str) -> dict:
    v = _v(version)
    names = ["VLLM_ALLOW_LONG_MAX_MODEL_LEN", "VLLM_DISABLE_COMPILE_CACHE", "VLLM_SERVER_DEV_MODE", "VLLM_API_KEY",
             "VLLM_ALLOW_RUNTIME_LORA_UPDATING"]
    if v <= _v("0.15.0"):
        names.append("VLLM_ALL2ALL_BACKEND")
    if v >= _v("0.11.1"):
        names.append("VLLM_MOE_USE_DEEP_GEMM")
    out = env(*names)
    if v >= _v("0.34.0"):
        out["VLLM_USE_RUST_FRONTEND"] = dict(env("x")["x"], type="bool", default=False)
    return out


def _eplb_fields(version: str) -> dict:
    v = _v(version)
    f = {"window_size": {"type": "int", "default": 1000}, "step_interval": {"type": "int", "default": 3000},
         "num_redundant_experts": {"type": "int", "default": 0}, "log_balancedness": {"type": "bool", "default": False}}
    if v >= _v("0.17.0"):
        f["use_async"] = {"type": "bool", "default": v >= _v("0.23.0")}
    if v >= _v("0.23.0"):
        f["communicator"] = {"type": "str | None", "default": None,
                             "choices": ["torch_nccl", "torch_gloo", "nixl", "pynccl"]}
    return f


def build(path: Path) -> Path:
    import synthetic_db

    rel = path / "releases"
    rel.mkdir(parents=True, exist_ok=True)
    for ver in VERSIONS:
        opts = options(ver)
        saved = dict(synthetic_db.JSON_CONFIGS)
        try:
            synthetic_db.JSON_CONFIGS.update({
                "eplb_config": {"class": "EPLBConfig", "fields": _eplb_fields(ver)},
                "speculative_config": {"class": "SpeculativeConfig", "fields": {
                    "method": {"type": "str", "default": None}, "model": {"type": "str", "default": None},
                    "num_speculative_tokens": {"type": "int", "default": None}}},
            })
            rec = _record(ver, opts, env_vars(ver))
            rec["serve_checks"] = serve_checks(ver)
            if _v(ver) >= _v("0.24.0"):  # ParallelConfig's Field(ge=1), handed over unchanged at start
                rec["start_fields"] = {"decode_context_parallel_size": {
                    "class": "ParallelConfig", "option": "--decode-context-parallel-size", "constraints": {"ge": 1}},
                    "numa_bind_nodes": {"class": "ParallelConfig", "option": "--numa-bind-nodes", "items": {"ge": 0}}}
            if _v("0.24.0") <= _v(ver) < _v("0.34.0"):  # resolve_quantization_config (EngineArgs.__post_init__)
                rec["config_checks"] = [{"kind": "when", "class": "EngineArgs", "when": [
                    {"dest": "quantization", "option": "--quantization", "test": "not_none"},
                    {"dest": "quantization", "option": "--quantization", "test": "not_in",
                     "values": ["fp8_per_tensor", "fp8_per_block", "mxfp8", "online"]},
                    {"dest": "quantization_config", "option": "--quantization-config", "test": "not_none"}]}]
            if _v(ver) >= _v("0.29.0"):  # `python -m vllm.entrypoints.openai.api_server` warns from 0.29.0
                rec["era"]["deprecated_entries"] = ["openai.api_server"]
        finally:
            synthetic_db.JSON_CONFIGS.clear()
            synthetic_db.JSON_CONFIGS.update(saved)
        write_json(rel / f"{ver}.json", rec)
    (path / "overlays").mkdir(exist_ok=True)
    write_json(path / "overlays" / "renames.json", {"options": {}, "env": {}})
    compile_index(path)
    return path
