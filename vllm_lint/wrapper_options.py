"""Options of programs that take vLLM's engine arguments in their own argv, keyed by launch entry.

Such a program parses its own options first, by their exact names, and hands the rest to vLLM's
parser; its options (and their values) are therefore never vLLM's to judge. Each name maps to its
shape: ``"flag"`` (no value), ``"value"`` (one value) or ``"values"`` (``nargs="*"``: every word
up to the next option).

NVIDIA Dynamo's vLLM worker (``python -m dynamo.vllm``, repository ai-dynamo/dynamo): the union of
the option names defined over its releases, as read in
  * ``components/src/dynamo/common/configuration/groups/runtime_args.py`` @ c6b40e7877acd161538f9f5683d7af6fbbdf670e
  * ``components/src/dynamo/vllm/backend_args.py`` @ d195d280e13e5532510a1004ad8d8d06f2f8266a and
    @ 036f289b17f289ffa99c34d554eb8ca8cc4a2b88, and a later stored version (benchmark options, role
    flags removed)
  * ``components/src/dynamo/vllm/args.py`` @ b6d5e48722e494c650c285c0f2370c3e28f37a1b (parsing:
    Dynamo's parser, ``allow_abbrev=False``, then vLLM's on the rest), a later stored version
    (``--engine-config-json``; ``--fpm-trace``, a boolean there) and two earlier stored versions (one parser with ``AsyncEngineArgs.add_cli_args``: ``--migration-limit``,
    ``--dynamo-port-min``, ``--store-kv``, ``--multimodal-processor``, ...)
  * ``components/src/dynamo/common/configuration/utils.py`` @ e4aab97b071ff0c698e7067ece9abd1b674c4389
    (a negatable flag is ``argparse.BooleanOptionalAction``: ``--x`` and ``--no-x``)
An option that Dynamo dropped in a later release is kept: the linter does not know the launch's
Dynamo release, and reporting it as an unknown vLLM option would be wrong at the releases that
have it. ``--enforce-eager``, which one release's diffusion options shadowed, is left out: it is
vLLM's at every other release. The model is vLLM's ``--model`` (no positional model).
"""

from __future__ import annotations

from typing import Mapping


def _negatable(*names: str) -> dict[str, str]:
    return {s: "flag" for n in names for s in (n, "--no-" + n[2:])}


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

_BY_ENTRY: dict[str, Mapping[str, str]] = {"dynamo.vllm": _DYNAMO_VLLM}
_NONE: Mapping[str, str] = {}


def own_options(entry: str) -> Mapping[str, str]:
    """The options (name -> shape) that the program of a launch with this entry parses itself."""
    return _BY_ENTRY.get(entry, _NONE)
