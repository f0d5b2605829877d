"""Programs that take vLLM's engine arguments in their own argv beside options of their own, keyed
by launch entry: one table (:data:`WRAPPERS`), consumed one way (``argv.ArgvParser`` skips a
wrapper's options, with their values, before vLLM resolves a word; ``Surface`` asks whether the
entry takes vLLM's positional model and whether vLLM's argv rewriting runs (``Surface.read_by``);
the option rules ask whether what the parser does not take is dropped rather than refused
(``rules/_status.dropping_wrapper``)).

Such a program matches its own options by their exact names; they (and their values) are never
vLLM's to judge. Each name maps to its shape: ``"flag"`` (no value), ``"value"`` (one value) or
``"values"`` (``nargs="*"``: every word up to the next option). The options of every release of
the wrapper that runs vLLM are kept (the union): the linter does not know the wrapper's release,
and calling an option of some releases an unknown vLLM option would be wrong at those releases.
Each entry records where its list was read: the repository, and each file with the commit(s)
whose version was read. KubeAI's ``Model`` and llm-d's ``vllmServe`` hand their ``args`` to vLLM
as they are (no options of their own), so they have no entry here.
"""

from __future__ import annotations

from .record import Record

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Mapping, Optional


class Wrapper(Record):
    """One wrapper: ``name`` (what a user calls it), ``repository`` and ``read`` (``(path, commits)``
    pairs: where its options were read), ``options`` (name -> shape), ``positional_model``
    (whether vLLM's positional model is in its argv: no, for both known wrappers, whose vLLM part is
    the api_server's ``--model``), ``ignores_leftovers`` (whether it reads its argv with
    ``parse_known_args``, so that a word or option no action takes is dropped, not refused: vLLM
    never sees it), ``short`` (how a message names it), ``vllm_preprocessing`` (whether vLLM's
    ``FlexibleArgumentParser.parse_args`` rewrites the argv first: ``_`` to ``-``, dotted JSON keys,
    ``-O`` levels; ``parse_known_args`` called directly skips it) and ``vllm_spellings`` (options the
    wrapper defines under its own spelling with vLLM's field as their dest: the value reaches vLLM
    as that option's) and ``open_options`` (its own options are not all known: a copy of a script
    of unknown version, so an option no vLLM release knows may be its own and is not reported)."""

    __slots__ = ("name", "repository", "read", "options", "positional_model", "ignores_leftovers", "short",
                 "vllm_preprocessing", "vllm_spellings", "open_options")

    def __init__(self, name: str, repository: str, read: tuple[tuple[str, str], ...],
                 options: Mapping[str, str], positional_model: bool = False,
                 ignores_leftovers: bool = False, short: str = "", vllm_preprocessing: bool = True,
                 vllm_spellings: Optional[Mapping[str, str]] = None, open_options: bool = False) -> None:
        self.name = name
        self.repository = repository
        self.read = read
        self.options = options
        self.positional_model = positional_model
        self.ignores_leftovers = ignores_leftovers
        self.short = short or name
        self.vllm_preprocessing = vllm_preprocessing
        self.vllm_spellings: Mapping[str, str] = vllm_spellings or {}
        self.open_options = open_options


def _negatable(*names: str) -> dict[str, str]:
    # argparse.BooleanOptionalAction: --x and --no-x
    return {s: "flag" for n in names for s in (n, "--no-" + n[2:])}


# NVIDIA Dynamo's vLLM worker: Dynamo's parser, then vLLM's on the rest. `--enforce-eager`, which
# one release's diffusion options shadowed, is left out: it is vLLM's at every other release.
_DYNAMO_VLLM: dict[str, str] = {
    "--version": "flag",
    # runtime options, common to Dynamo's backends
    **dict.fromkeys((
        "--namespace", "--endpoint", "--discovery-backend", "--store-kv", "--request-plane",
        "--event-plane", "--dyn-tool-call-parser", "--dyn-reasoning-parser", "--custom-jinja-template",
        "--endpoint-types", "--dyn-endpoint-types", "--dump-config-to", "--migration-limit",
        "--multimodal-embedding-cache-capacity-gb", "--media-output-fs-url", "--media-output-http-url",
        "--dynamo-port-min", "--dynamo-port-max", "--engine-config-json",
    ), "value"),
    "--connector": "values",
    "--output-modalities": "values",
    **_negatable("--durable-kv-events", "--fpm-trace"),
    # the vLLM worker's options
    **dict.fromkeys((
        "--disaggregation-mode", "--sleep-mode-level", "--mm-prompt-template", "--stage-configs-path",
        "--video-output-dir", "--default-video-fps", "--layerwise-num-gpu-layers", "--boundary-ratio",
        "--flow-shift", "--diffusion-cache-backend", "--diffusion-cache-config", "--ulysses-degree",
        "--ring-degree", "--cfg-parallel-size", "--omni-layerwise-num-gpu-layers", "--omni-boundary-ratio",
        "--omni-flow-shift", "--omni-diffusion-cache-backend", "--omni-diffusion-cache-config",
        "--omni-ulysses-degree", "--omni-ring-degree", "--omni-cfg-parallel-size", "--model-express-url",
        "--custom-encoder-class", "--embedding-transfer-mode", "--embedding-worker-processes",
        "--benchmark-mode", "--benchmark-points-file", "--prefill-max-new-token-samples",
        "--prefill-max-kv-read-token-samples", "--decode-max-kv-read-token-samples",
        "--decode-max-batch-size-samples", "--prefix-max-batch-size-samples",
        "--benchmark-prefill-granularity", "--benchmark-prefill-kv-read-granularity",
        "--benchmark-prefill-batch-granularity", "--benchmark-decode-length-granularity",
        "--benchmark-decode-batch-granularity", "--benchmark-warmup-iterations", "--benchmark-output-path",
        "--benchmark-timeout",
    ), "value"),
    **_negatable(
        "--is-prefill-worker", "--is-decode-worker", "--use-vllm-tokenizer", "--route-to-encoder",
        "--multimodal-processor", "--multimodal-encode-worker", "--multimodal-worker",
        "--multimodal-decode-worker", "--enable-multimodal", "--frontend-decoding", "--omni",
        "--enable-layerwise-offload", "--vae-use-slicing", "--vae-use-tiling", "--enable-cache-dit-summary",
        "--enable-cpu-offload", "--omni-enable-layerwise-offload", "--omni-vae-use-slicing",
        "--omni-vae-use-tiling", "--omni-enable-cache-dit-summary", "--omni-enable-cpu-offload",
        "--omni-enforce-eager", "--headless", "--enable-rl", "--embedding-worker",
        "--embedding-frontend-tokenization", "--realtime", "--classify-worker", "--gms-shadow-mode",
        "--benchmark-collect-imbalanced",
    ),
    "--multimodal-encode-prefill-worker": "flag",
}

# KServe's huggingfaceserver: one parser (kserve.model_server's as parent, then the server's own,
# then vLLM's api_server options when the vLLM backend is on; an argparse.ArgumentParser, from
# 2024-11-05 vLLM's FlexibleArgumentParser), read with parse_known_args, never parse_args, so
# vLLM's argv rewriting never runs. `--max_model_len` and `--trust_remote_code` are the server's
# spellings of vLLM's fields (vllm_spellings); `--dtype` and `--max_log_len` are defined only when
# the vLLM backend is off; `--task` is kept: it was the server's at every release before 2024-12-27.
# parse_known_args drops an option neither parser knows (vLLM's options spelled with underscores,
# `--gpu_memory_utilization`, among them) and every word no action takes; a bad value of a known
# option, a missing value and an ambiguous prefix still exit (argparse's error).
_KSERVE_HUGGINGFACESERVER: dict[str, str] = {
    # kserve.model_server
    **dict.fromkeys((
        "--http_port", "--grpc_port", "--workers", "--max_threads", "--max_asyncio_workers", "--enable_grpc",
        "--enable_docs_url", "--enable_latency_logging", "--configure_logging", "--log_config_file",
        "--access_log_format", "--event-loop", "--timeout-keep-alive", "--model_name", "--predictor_host",
        "--protocol", "--predictor_protocol", "--predictor_use_ssl", "--predictor_request_timeout_seconds",
        "--predictor_request_retries", "--grpc_max_send_message_length", "--grpc_max_receive_message_length",
    ), "value"),
    "--enable_predictor_health_check": "flag",
    # huggingfaceserver
    **dict.fromkeys((
        "--model_dir", "--model_id", "--model_revision", "--tokenizer_revision", "--max_length",
        "--tensor_input_names", "--backend", "--task", "--tensor_parallel_degree",
    ), "value"),
    **dict.fromkeys((
        "--disable_lower_case", "--disable_special_tokens", "--return_token_type_ids", "--return_probabilities",
        "--return_raw_logits", "--return_offsets_mapping", "--disable_log_requests", "--disable_vllm",
    ), "flag"),
}

# vLLM's offline benchmarks: their own options, then EngineArgs.add_cli_args (AsyncEngineArgs for
# throughput) on one FlexibleArgumentParser read with parse_args: vLLM's rewriting runs, an option
# neither knows is refused; `--model` is EngineArgs' option there (no positional model). The union
# over the `vllm bench` sub-commands and the `benchmarks/benchmark_*.py` scripts they replaced.
_BENCH_LATENCY: dict[str, str] = {
    **dict.fromkeys(("--input-len", "--output-len", "--batch-size", "--n", "--num-iters-warmup", "--num-iters",
                     "--profile-result-dir", "--output-json"), "value"),
    **dict.fromkeys(("--use-beam-search", "--profile", "--disable-detokenize"), "flag"),
}
_BENCH_THROUGHPUT: dict[str, str] = {
    **dict.fromkeys((
        "--backend", "--dataset", "--dataset-name", "--dataset-path", "--input-len", "--output-len", "--n",
        "--num-prompts", "--hf-max-batch-size", "--output-json", "--lora-path", "--prefix-len", "--random-range-ratio",
        "--hf-subset", "--hf-split", "--hf-name", "--num-warmups", "--lora-assignment", "--custom-output-len",
        "--prefix-repetition-prefix-len", "--prefix-repetition-suffix-len", "--prefix-repetition-num-prefixes",
        "--prefix-repetition-output-len", "--random-input-len", "--random-output-len", "--random-prefix-len",
        "--random-batch-size", "--random-mm-base-items-per-request", "--random-mm-num-mm-items-range-ratio",
        "--random-mm-limit-mm-per-prompt", "--random-mm-bucket-config", "--asr-max-audio-len-sec",
        "--asr-min-audio-len-sec",
    ), "value"),
    **dict.fromkeys(("--async-engine", "--disable-frontend-multiprocessing", "--disable-detokenize",
                     "--enable-multimodal-chat", "--hf-enable-torch-compile", "--no-oversample", "--no-reranker",
                     "--prequeue-requests", "--profile"), "flag"),
}
_BENCH_READ = "the 0.9.0, 0.10.2, 0.20.0 and 0.34.0 sdists"

WRAPPERS: dict[str, Wrapper] = {
    "vllm bench latency": Wrapper(
        "vLLM's latency benchmark (vllm bench latency, benchmarks/benchmark_latency.py)", "vllm-project/vllm", (
            ("vllm/benchmarks/latency.py", "7142f6aec85470b9c74db675652897a14d4c644f (add_cli_args), and in "
             f"{_BENCH_READ} with vllm 0.9.0's benchmarks/benchmark_latency.py (0.10.2 on: a stub naming vllm bench)"),
        ), _BENCH_LATENCY, short="vLLM's latency benchmark"),
    "vllm bench throughput": Wrapper(
        "vLLM's throughput benchmark (vllm bench throughput, benchmarks/benchmark_throughput.py)",
        "vllm-project/vllm", (
            ("vllm/benchmarks/throughput.py", "020283147c84ad8cc97eadffcdb033ea56322563 (add_cli_args), and in "
             f"{_BENCH_READ} with the random-dataset helpers of vllm/benchmarks/datasets (0.20.0, 0.34.0) and "
             "the parsers of vllm 0.9.0's and 0.10.2's benchmarks/benchmark_throughput.py"),
        ), _BENCH_THROUGHPUT, short="vLLM's throughput benchmark"),
    # the scripts, copied into other repositories from releases whose own options were not all read
    # (before 0.9.0 they changed often): an option no vLLM release knows may be the copy's own
    "vllm benchmark_latency.py": Wrapper(
        "a copy of vLLM's benchmarks/benchmark_latency.py", "vllm-project/vllm", (
            ("vllm/benchmarks/latency.py", "7142f6aec85470b9c74db675652897a14d4c644f, as for vllm bench latency"),
        ), _BENCH_LATENCY, short="the copy of vLLM's latency benchmark", open_options=True),
    "vllm benchmark_throughput.py": Wrapper(
        "a copy of vLLM's benchmarks/benchmark_throughput.py", "vllm-project/vllm", (
            ("vllm/benchmarks/throughput.py", "020283147c84ad8cc97eadffcdb033ea56322563, as for vllm bench "
             "throughput"),
        ), _BENCH_THROUGHPUT, short="the copy of vLLM's throughput benchmark", open_options=True),
    "dynamo.vllm": Wrapper(
        "NVIDIA Dynamo's vLLM worker (python -m dynamo.vllm)", "ai-dynamo/dynamo", (
            ("components/src/dynamo/common/configuration/groups/runtime_args.py",
             "c6b40e7877acd161538f9f5683d7af6fbbdf670e"),
            ("components/src/dynamo/vllm/backend_args.py",
             "d195d280e13e5532510a1004ad8d8d06f2f8266a, 036f289b17f289ffa99c34d554eb8ca8cc4a2b88 and a later "
             "stored version (benchmark options; role flags removed)"),
            ("components/src/dynamo/vllm/args.py",
             "b6d5e48722e494c650c285c0f2370c3e28f37a1b (Dynamo's parser, allow_abbrev=False, then vLLM's on the "
             "rest), a later stored version (--engine-config-json; --fpm-trace a boolean) and two earlier ones "
             "(one parser with AsyncEngineArgs.add_cli_args: --migration-limit, --store-kv, ...)"),
            ("components/src/dynamo/common/configuration/utils.py",
             "e4aab97b071ff0c698e7067ece9abd1b674c4389 (a negatable flag is BooleanOptionalAction)"),
        ), _DYNAMO_VLLM, short="Dynamo's vLLM worker"),
    "kserve:huggingfaceserver": Wrapper(
        "KServe's Hugging Face server (an InferenceService predictor with a huggingface or vLLM model format)",
        "kserve/kserve", (
            ("python/huggingfaceserver/huggingfaceserver/__main__.py",
             "every version from 1433e952c7c9cebed57d25ee56a2b4f8f48ba89d (2024-02-18, the vLLM backend) to "
             "30a4c85244049054de241f2099f2efa913d013d0 (2026-07-14): 31 versions"),
            ("python/kserve/kserve/model_server.py",
             "fff18026658b6b7384c768d24525ef3f8dc67264 (the version of 2024-01-26) and every later version to "
             "7b52c79e4a1520709d784c755b028a41be371072 (2026-04-23): 28 versions"),
        ), _KSERVE_HUGGINGFACESERVER, ignores_leftovers=True, short="KServe's huggingfaceserver",
        vllm_preprocessing=False,
        vllm_spellings={"--max_model_len": "--max-model-len", "--trust_remote_code": "--trust-remote-code"}),
}
_NONE: Mapping[str, str] = {}


def own_options(entry: str) -> Mapping[str, str]:
    """The options (name -> shape) that the program of a launch with this entry parses itself."""
    w = WRAPPERS.get(entry)
    return _NONE if w is None else w.options

