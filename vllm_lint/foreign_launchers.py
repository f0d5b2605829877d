"""Other tools' launchers that start vLLM with vLLM's engine settings under their own spelling: one
table (:data:`FOREIGN_LAUNCHERS`), keyed by launch entry, consumed three ways (``frontends/commands``
recognises a row's command line; ``argv.ArgvParser`` maps its arguments onto vLLM's engine options;
the option rules ask which keys reach vLLM as written, ``rules/_status``).

A row says how the launcher is recognised (its program names and sub-command, ``python -m``
modules, scripts; for a tool with several back-ends the option that selects vLLM's), where the
engine settings are written (``options``: ``--key value`` words of the tool's own parser, a
dataclass read by ``HfArgumentParser``; ``key-values``: one ``key=value,...`` string, the value of
an option or the first positional; ``overrides``: Hydra's ``dotted.key=value`` words, ``+`` / ``++``
before the key allowed), and how its keys reach vLLM: ``keys`` maps a key of the tool to
the ``EngineArgs`` / ``LLM`` field it sets (its value goes to vLLM as the tool converted it, so
vLLM's checks of the value apply; the name is the tool's, so vLLM's history of the name does not);
``model`` names the keys that give the model; every other key is the tool's own (``own`` lists
them for the reader) and is never vLLM's to judge, unless ``passes_unknown``: the tool hands any
key it does not know to ``LLM(**kwargs)`` as written, so such a key is checked as a keyword
argument of ``LLM`` (an unknown one is refused by vLLM at that release); ``passes_under``: the
same for the keys under a prefix of the tool's (verl's ``actor_rollout_ref.rollout.engine_kwargs.vllm.``),
read without the prefix.

A tool's ``data_parallel_size`` starts that many engines of ``tensor_parallel_size`` GPUs each (TRL
through vLLM's own data parallelism, ``VLLM_DP_SIZE``; lighteval and lm-evaluation-harness as Ray
replicas): it maps to vLLM's field, so that the GPUs the launch takes are counted as vLLM counts them.

The keys of every release of the tool are kept (the union): the linter does not know the tool's
release. Each row records where it was read: the repository, and each file with the commit read.
vLLM's own benchmark programs (``vllm bench latency``, ``benchmark_latency.py``) read vLLM's own
engine options with vLLM's parser: they are wrappers (``wrapper_options.WRAPPERS``), not rows here.
"""

from __future__ import annotations

from .record import Record

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Mapping, Optional


class ForeignLauncher(Record):
    """One tool's launcher of vLLM. ``entry``: the ``Launch.entry`` of its launches; ``tool`` (how
    messages name the tool); ``repository`` and ``read`` (``(path, commit)`` pairs); ``programs``
    (base names of the program word), ``sub`` (the words after it that select the launcher, after
    ``python -m MODULE`` for ``modules``), ``scripts`` (a script path's ending run by ``python``);
    ``select`` (an option of the program and the values of it that select vLLM, when the program
    has several back-ends; ``None`` when the sub-command alone selects it; an empty set of values:
    the option given with any count but 0, OpenRLHF's ``--vllm_num_engines 4``; ``select_default``:
    the value when the option is not written, verl's ``rollout.name`` before it had none;
    ``select_shows``: the selecting key written with vLLM's value shows the launcher whatever Python
    program takes it, the key being the tool's alone: a repository's own trainer built on verl's,
    ``python -m sp3f.main_grpo actor_rollout_ref.rollout.name=vllm``); ``form`` ("options",
    "key-values" or "overrides"); ``holders`` (for "key-values": the options whose value words hold
    the string, ``()`` for the first positional); ``keys`` (tool key -> vLLM field), ``model`` (keys
    that give the model), ``own`` (the tool's own keys, for the reader), ``passes_unknown`` and
    ``passes_under`` (see the module), ``typed`` (the tool turns a ``key-values`` value into a
    Python literal before it reaches a keyword argument: ``True``, ``4``, ``0.9``: lm-evaluation-harness's ``handle_arg_string``).
    In Python: ``calls`` (the dotted callees that start it: ``lm_eval.simple_evaluate``),
    ``call_select`` (the keyword argument and its values that select vLLM), ``call_holders`` (the
    keyword arguments whose ``key=value`` string or mapping is handed on: ``model_args``,
    ``extra_kwargs``); the call's other keywords are ``keys`` and ``model`` as above. ``shares_gpus``:
    the tool's own work runs on the GPUs the job gets besides its vLLM engines (an RL trainer's actor
    trains on every GPU while its rollout engines take tensor-parallel groups of them), so a layout
    smaller than the request leaves none idle."""

    __slots__ = ("entry", "tool", "repository", "read", "programs", "sub", "modules", "scripts", "select",
                 "select_default", "select_shows", "form", "holders", "keys", "model", "own", "passes_unknown",
                 "passes_under", "typed", "calls", "call_select",
                 "call_holders", "shares_gpus")

    def __init__(self, entry: str, tool: str, repository: str, read: tuple[tuple[str, str], ...], *,
                 programs: tuple[str, ...] = (), sub: tuple[str, ...] = (), modules: tuple[str, ...] = (),
                 scripts: tuple[str, ...] = (), select: Optional[tuple[tuple[str, ...], frozenset[str]]] = None,
                 select_default: Optional[str] = None, select_shows: bool = False,
                 form: str = "options", holders: tuple[str, ...] = (), keys: Mapping[str, str],
                 model: tuple[str, ...] = ("model",), own: tuple[str, ...] = (), passes_unknown: bool = False,
                 passes_under: tuple[str, ...] = (), typed: bool = False, calls: tuple[str, ...] = (),
                 call_select: Optional[tuple[str, frozenset[str]]] = None,
                 call_holders: tuple[str, ...] = (), shares_gpus: bool = False) -> None:
        self.entry = entry
        self.tool = tool
        self.repository = repository
        self.read = read
        self.programs = programs
        self.sub = sub
        self.modules = modules
        self.scripts = scripts
        self.select = select
        self.select_default = select_default
        self.select_shows = select_shows
        self.form = form
        self.holders = holders
        self.keys = keys
        self.model = model
        self.own = own
        self.passes_unknown = passes_unknown
        self.passes_under = passes_under
        self.typed = typed
        self.calls = calls
        self.call_select = call_select
        self.call_holders = call_holders
        self.shares_gpus = shares_gpus


def _same(*fields: str) -> dict[str, str]:
    return {f: f for f in fields}


FOREIGN_LAUNCHERS: dict[str, ForeignLauncher] = {row.entry: row for row in (
    # TRL's generation server for online training: ScriptArguments read by HfArgumentParser
    # (`--tensor_parallel_size` and, with recent transformers, `--tensor-parallel-size`), handed to
    # LLM(...) field by field; data_parallel_size starts that many LLM workers itself.
    ForeignLauncher(
        "trl vllm-serve", "TRL", "huggingface/trl", (
            ("trl/scripts/vllm_serve.py", "every version from f713f614e (2025-03-22) to bb2e72412 (2026-06-30): "
             "58 versions (ScriptArguments and the LLM(...) call of llm_worker)"),
            ("trl/cli.py", "bb2e72412 (the `vllm-serve` command)"),
        ),
        programs=("trl",), sub=("vllm-serve",), modules=("trl",), scripts=("trl/scripts/vllm_serve.py",),
        keys={**_same("revision", "tensor_parallel_size", "gpu_memory_utilization", "dtype", "max_model_len",
                      "enable_prefix_caching", "enforce_eager", "kv_cache_dtype", "trust_remote_code",
                      "distributed_executor_backend", "speculative_config", "data_parallel_size"),
              "vllm_model_impl": "model_impl"},
        own=("host", "port", "log_level")),
    # lighteval's vLLM back-end: `lighteval vllm "model_name=M,dtype=bfloat16,..." TASKS`, the string
    # read by ModelConfig._parse_args into VLLMModelConfig (pydantic, extra="forbid": an unknown key
    # is lighteval's refusal), then LLM(**model_args) built field by field (swap_space and
    # enforce_eager are lighteval's constants there, not the user's keys).
    ForeignLauncher(
        "lighteval vllm", "lighteval", "huggingface/lighteval", (
            ("src/lighteval/models/vllm/vllm_model.py", "every version to 3fd15266b: 38 versions (VLLMModelConfig, "
             "_create_auto_model; `pretrained` and `gpu_memory_utilisation` before the renames)"),
            ("src/lighteval/models/abstract_model.py", "3fd15266b (ModelConfig._parse_args, extra=\"forbid\")"),
        ),
        programs=("lighteval",), sub=("vllm",), modules=("lighteval",), form="key-values",
        keys={**_same("gpu_memory_utilization", "enable_prefix_caching", "revision", "dtype", "trust_remote_code",
                      "tensor_parallel_size", "pipeline_parallel_size", "seed", "max_num_seqs",
                      "max_num_batched_tokens", "quantization", "load_format", "data_parallel_size"),
              "gpu_memory_utilisation": "gpu_memory_utilization", "max_model_length": "max_model_len"},
        model=("model_name", "pretrained"),
        own=("swap_space", "add_special_tokens", "multichoice_continuations_start_space",
             "pairwise_tokenization", "subfolder", "is_async", "override_chat_template", "generation_parameters",
             "use_chat_template", "temperature", "tokenizer", "system_prompt", "cache_dir")),
    # lm-evaluation-harness's vLLM back-end: `--model vllm --model_args pretrained=M,k=v,...`, the
    # string split at `,` and each value turned into a literal (handle_arg_string); VLLM.__init__
    # takes its own parameters and hands the rest (**kwargs) to LLM(...) unchanged.
    ForeignLauncher(
        "lm_eval vllm", "lm-evaluation-harness", "EleutherAI/lm-evaluation-harness", (
            ("lm_eval/models/vllm_causallms.py", "4e7e0d47f (VLLM.__init__: its parameters, model_args, "
             "self.model_args.update(kwargs); swap_space and device popped)"),
            ("lm_eval/_cli/utils.py", "4e7e0d47f (key_val_to_dict, MergeDictAction)"),
            ("lm_eval/utils.py", "4e7e0d47f (simple_parse_args_string, handle_arg_string)"),
            ("lm_eval/_cli/run.py", "4e7e0d47f (`--model`/`-M`, `--model_args`/`-a`)"),
        ),
        programs=("lm_eval", "lm-eval"), sub=(), modules=("lm_eval",),
        select=(("--model", "-M"), frozenset({"vllm", "vllm-vlm"})), form="key-values",
        holders=("--model_args", "-a"), typed=True, passes_unknown=True,
        calls=("lm_eval.simple_evaluate", "lm_eval.evaluator.simple_evaluate"),
        call_select=("model", frozenset({"vllm", "vllm-vlm"})), call_holders=("model_args",),
        keys={**_same("dtype", "revision", "trust_remote_code", "tokenizer", "tokenizer_mode", "tokenizer_revision",
                      "tensor_parallel_size", "quantization", "max_model_len", "seed", "max_lora_rank",
                      "max_num_seqs", "data_parallel_size"),
              "max_length": "max_model_len", "max_batch_size": "max_num_seqs"},
        model=("pretrained",),
        own=("add_bos_token", "prefix_token_id", "max_gen_toks", "batch_size", "lora_local_path", "enable_thinking", "chat_template_args", "think_end_token", "truncation_side",
             "device", "swap_space")),
    # distilabel's vLLM model: its own fields handed to LLM(...) one by one, `extra_kwargs` (a
    # mapping) handed on whole (**extra_kwargs); a Python class, no command line.
    ForeignLauncher(
        "distilabel vLLM", "distilabel", "argilla-io/distilabel", (
            ("src/distilabel/models/llms/vllm.py", "02eb4583beea89607c7fa5bfcc9d5d314e7efc96 (the fields of vLLM, "
             "and load(): _vLLM(self.model, dtype=..., ..., **self.extra_kwargs))"),
        ),
        form="key-values", passes_unknown=True,
        calls=("distilabel.models.vLLM", "distilabel.models.llms.vLLM", "distilabel.llms.vLLM",
               "distilabel.models.llms.vllm.vLLM"),
        call_holders=("extra_kwargs",),
        keys=_same("dtype", "trust_remote_code", "quantization", "revision", "tokenizer", "tokenizer_mode",
                   "tokenizer_revision", "skip_tokenizer_init", "seed"),
        own=("chat_template", "structured_output", "use_magpie_template", "magpie_pre_query_template",
             "generation_kwargs", "cuda_devices", "disable_cuda_device_placement")),
    # verl's PPO/GRPO trainer with vLLM rollouts: Hydra overrides on its command line
    # (`actor_rollout_ref.rollout.gpu_memory_utilization=0.6`). The rollout config's fields are
    # handed to vLLM field by field (LLM(...) in vllm_rollout_spmd; a `vllm serve` argv parsed by
    # vLLM's own parser in vllm_async_server, None and False left out), engine_kwargs.vllm.* on top
    # as written. rollout.name selects the engine; it defaulted to vllm until 2025-07-26.
    ForeignLauncher(
        "verl rollout vllm", "verl", "volcengine/verl", (
            ("verl/workers/rollout/vllm_rollout/vllm_async_server.py", "b178a3cd56f58b2d502255daba591e92833930a7 "
             "(the `vllm serve` args from the rollout config, **engine_kwargs)"),
            ("verl/workers/rollout/vllm_rollout/utils.py", "b178a3cd5 (build_cli_args_from_config)"),
            ("verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py", "96903e0e97af6f645610bbe45f255a6c76f46a89 "
             "(LLM(...) from the rollout config, **engine_kwargs)"),
            ("verl/trainer/config/rollout/rollout.yaml", "b178a3cd5 (the fields; `name: ???` since 2e1a1a660, "
             "`name: vllm` in ppo_trainer.yaml before)"),
        ),
        modules=("verl.trainer.main_ppo", "recipe.dapo.main_dapo"), scripts=("verl/trainer/main_ppo.py",),
        select=(("actor_rollout_ref.rollout.name",), frozenset({"vllm"})), select_default="vllm", select_shows=True,
        form="overrides", typed=True, passes_under=("actor_rollout_ref.rollout.engine_kwargs.vllm.",),
        keys={f"actor_rollout_ref.rollout.{k}": v for k, v in {
            **_same("gpu_memory_utilization", "dtype", "enforce_eager", "max_num_batched_tokens", "max_model_len",
                    "max_num_seqs", "enable_chunked_prefill", "enable_prefix_caching", "load_format",
                    "disable_log_stats", "logprobs_mode", "scheduling_policy"),
            "tensor_model_parallel_size": "tensor_parallel_size"}.items()},
        model=("actor_rollout_ref.model.path",),
        own=tuple(f"actor_rollout_ref.rollout.{k}" for k in (
            "name", "mode", "temperature", "top_k", "top_p", "n", "response_length", "prompt_length",
            "free_cache_engine", "log_prob_micro_batch_size_per_gpu", "quantization", "data_parallel_size",
            "expert_parallel_size", "pipeline_model_parallel_size", "cudagraph_capture_sizes", "seed")),
        shares_gpus=True),
    # OpenRLHF's Ray PPO trainer: its vLLM engines are started when --vllm_num_engines (since
    # ed62d0e2, --vllm.num_engines) is given and not 0; its argparse options handed to
    # LLM(...) in create_vllm_engines (dtype, trust_remote_code and the seed are its own constants).
    ForeignLauncher(
        "openrlhf train_ppo_ray", "OpenRLHF", "OpenRLHF/OpenRLHF", (
            ("openrlhf/cli/train_ppo_ray.py", "76351db1ffe8e12db632a5bf450bbafb3e2031ed (--vllm_* options, "
             "--enable_prefix_caching, --enforce_eager, --max_len, --pretrain) and "
             "3c3be6234e0cb353e76bb8019947db9dfe99fca7 (--vllm.*, --data.max_len, --actor.model_name_or_path)"),
            ("openrlhf/trainer/ray/vllm_engine.py", "3c3be6234 (create_vllm_engines: actor_kwargs of LLM(...))"),
        ),
        modules=("openrlhf.cli.train_ppo_ray",), scripts=("openrlhf/cli/train_ppo_ray.py",),
        select=(("--vllm_num_engines", "--vllm.num_engines"), frozenset()),
        keys={"vllm_tensor_parallel_size": "tensor_parallel_size", "vllm.tensor_parallel_size": "tensor_parallel_size",
              "vllm_gpu_memory_utilization": "gpu_memory_utilization",
              "vllm.gpu_memory_utilization": "gpu_memory_utilization",
              "vllm_enable_sleep": "enable_sleep_mode", "vllm.enable_sleep": "enable_sleep_mode",
              "enable_prefix_caching": "enable_prefix_caching", "vllm.enable_prefix_caching": "enable_prefix_caching",
              "enforce_eager": "enforce_eager", "vllm.enforce_eager": "enforce_eager",
              "max_len": "max_model_len", "data.max_len": "max_model_len"},
        model=("pretrain", "actor.model_name_or_path"),
        own=("vllm_num_engines", "vllm.num_engines", "vllm_sync_backend", "vllm.sync_backend", "vllm_sync_with_ray",
             "vllm.sync_with_ray", "colocate_all_models", "seed", "prompt_max_len", "generate_max_len"),
        shares_gpus=True),
    # SkyRL's trainer (skyrl-train): Hydra overrides of its generator's inference engines. Before
    # 2026-04-22 under `generator.` (inference_engine_tensor_parallel_size, model_dtype, ...) handed
    # to LLM(...) in ray_wrapped_inference_engine; since then under `generator.inference_engine.`,
    # set on the namespace of vLLM's own parser (engine_init_kwargs likewise, without a check of
    # the names: not read here). backend selects the engine, vllm by default.
    ForeignLauncher(
        "skyrl generator vllm", "SkyRL", "NovaSky-AI/SkyRL", (
            ("skyrl-train/skyrl_train/entrypoints/main_base.py", "bafdbb5db6986e3ef844127c7b9608d3d4396779 "
             "(yumc-afk/SkyRL's snapshot: create_ray_wrapped_inference_engines from cfg.generator)"),
            ("skyrl-train/skyrl_train/inference_engines/ray_wrapped_inference_engine.py", "bafdbb5db (LLM(...))"),
            ("skyrl/backends/skyrl_train/inference_servers/utils.py", "a9564572eb8e91076be43c1bd5e4615e3de17265 "
             "(the overrides of vLLM's parsed args from generator.inference_engine)"),
            ("skyrl/train/config/config.py", "a9564572e (InferenceEngineConfig: backend \"vllm\" by default)"),
        ),
        modules=("skyrl_train.entrypoints.main_base", "skyrl.train.entrypoints.main_base"),
        select=(("generator.backend", "generator.inference_engine.backend"), frozenset({"vllm"})),
        select_default="vllm", select_shows=True, form="overrides",
        keys={**{f"generator.{k}": v for k, v in {
                  **_same("gpu_memory_utilization", "enforce_eager", "enable_prefix_caching", "max_num_batched_tokens",
                          "max_num_seqs"),
                  "inference_engine_tensor_parallel_size": "tensor_parallel_size", "model_dtype": "dtype"}.items()},
              **{f"generator.inference_engine.{k}": v for k, v in {
                  **_same("gpu_memory_utilization", "enforce_eager", "enable_prefix_caching", "max_num_batched_tokens",
                          "max_num_seqs", "tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size"),
                  "model_dtype": "dtype"}.items()}},
        model=("trainer.policy.model.path",),
        own=("generator.num_inference_engines", "generator.inference_engine.num_engines", "generator.backend",
             "generator.inference_engine.backend", "generator.run_engines_locally",
             "generator.inference_engine.run_engines_locally", "generator.weight_sync_backend",
             "generator.inference_engine.weight_sync_backend", "generator.n_samples_per_prompt"),
        shares_gpus=True),
    # ms-swift's inference, deployment and evaluation with `--infer_backend vllm`: VllmArguments
    # (HfArgumentParser), get_vllm_engine_kwargs, then VllmEngine's EngineArgs(...) field by field.
    ForeignLauncher(
        "swift vllm", "ms-swift", "modelscope/ms-swift", (
            ("swift/rlhf_trainers/args_mixin.py", "3602360a562313afbf2ef6065fdf61f271a2c5b9 (VllmArguments, "
             "get_vllm_engine_kwargs)"),
            ("swift/infer_engine/vllm_engine.py", "3602360a5 (engine_cls(model=..., gpu_memory_utilization=..., ...))"),
            ("swift/arguments/infer_args.py", "3602360a5 (infer_backend)"),
            ("swift/cli/main.py", "3602360a5 (the sub-commands: infer, deploy, eval, sample, ...)"),
        ),
        programs=("swift",), select=(("--infer_backend",), frozenset({"vllm"})),
        keys={f"vllm_{k}": v for k, v in {
            **_same("gpu_memory_utilization", "tensor_parallel_size", "pipeline_parallel_size", "max_num_seqs",
                    "max_model_len", "disable_custom_all_reduce", "enforce_eager", "max_lora_rank",
                    "enable_prefix_caching", "quantization", "enable_expert_parallel")}.items()},
        own=("infer_backend", "vllm_use_async_engine", "vllm_engine_kwargs", "vllm_limit_mm_per_prompt",
             "vllm_data_parallel_size", "vllm_reasoning_parser", "port", "host", "served_model_name")),
    # LLaMA-Factory's chat, API and web UI with `--infer_backend vllm`: ModelArguments
    # (HfArgumentParser) vllm_maxlen, vllm_gpu_util, ... handed to AsyncEngineArgs in VllmEngine
    # (tensor_parallel_size is the device count, not the user's).
    ForeignLauncher(
        "llamafactory vllm", "LLaMA-Factory", "hiyouga/LLaMA-Factory", (
            ("src/llamafactory/hparams/model_args.py", "ff6d4d12eeb035d6ce06805a5733dd7b29f2ac30 (infer_backend, "
             "vllm_maxlen, vllm_gpu_util, vllm_enforce_eager, vllm_max_lora_rank, vllm_config)"),
            ("src/llamafactory/chat/vllm_engine.py", "ff6d4d12e (engine_args = {...}, vllm_config on top)"),
        ),
        programs=("llamafactory-cli", "lmf"), select=(("--infer_backend",), frozenset({"vllm"})),
        keys={"vllm_maxlen": "max_model_len", "vllm_gpu_util": "gpu_memory_utilization",
              "vllm_enforce_eager": "enforce_eager", "vllm_max_lora_rank": "max_lora_rank"},
        model=("model_name_or_path",),
        own=("infer_backend", "template", "vllm_config", "infer_dtype", "adapter_name_or_path")),
)}

_BY_PROGRAM: dict[str, tuple[ForeignLauncher, ...]] = {}
for _row in FOREIGN_LAUNCHERS.values():
    for _name in _row.programs:
        _BY_PROGRAM[_name] = _BY_PROGRAM.get(_name, ()) + (_row,)


def launchers_of_program(name: str) -> tuple[ForeignLauncher, ...]:
    """The rows whose program is called ``name`` (a base name)."""
    return _BY_PROGRAM.get(name, ())


def launchers_of_module(module: str) -> tuple[tuple[ForeignLauncher, bool], ...]:
    """The rows run as ``python -m module``, each with whether its sub-command follows: the tool's
    package (``python -m trl vllm-serve``), or a script of the row as a module
    (``python -m trl.scripts.vllm_serve``)."""
    out = []
    for r in FOREIGN_LAUNCHERS.values():
        if module in r.modules:
            out.append((r, True))
        elif any(s.endswith(".py") and s[:-3].replace("/", ".") == module for s in r.scripts):
            out.append((r, False))
    return tuple(out)


def launchers_shown_by_selection() -> tuple[ForeignLauncher, ...]:
    """The rows whose selecting key, written with vLLM's value, shows them in any Python program."""
    return tuple(r for r in FOREIGN_LAUNCHERS.values() if r.select_shows)


def launcher_of_script(path: str) -> Optional[ForeignLauncher]:
    """The row whose script ``path`` runs (``python trl/scripts/vllm_serve.py``), if any."""
    for row in FOREIGN_LAUNCHERS.values():
        if any(path == s or path.endswith("/" + s) for s in row.scripts):
            return row
    return None


def launch_markers() -> tuple[bytes, ...]:
    """Byte strings that show a row's command line (``trl vllm-serve``, ``--model vllm``): where a
    reader decides by content whether a text holds a launch (an untagged Markdown block)."""
    out: list[bytes] = []
    for row in FOREIGN_LAUNCHERS.values():
        if row.select is not None:
            names, values = row.select
            out += [f"{n}{sep}{v}".encode() for n in names for v in sorted(values) for sep in (" ", "=")]
        elif row.sub:
            out += [" ".join((p, *row.sub)).encode() for p in row.programs]
        out += [m.encode() for m in row.modules if (row.select is None or row.select_default) and not row.sub]
    return tuple(out)


def launcher_module_words() -> tuple[bytes, ...]:
    """The dotted ``python -m`` modules of the rows that select vLLM without the word vllm on their
    command line (a default back-end: ``python3 -m verl.trainer.main_ppo ...``)."""
    return tuple(m.encode() for r in FOREIGN_LAUNCHERS.values() if r.select_default == "vllm"
                 for m in r.modules if "." in m)


def launcher_of_call(dotted: str) -> Optional[ForeignLauncher]:
    """The row a dotted Python callee starts (``lm_eval.simple_evaluate``), if any."""
    for row in FOREIGN_LAUNCHERS.values():
        if dotted in row.calls:
            return row
    return None


def call_names() -> frozenset[str]:
    """The last names of the rows' Python callees (``simple_evaluate``, ``vLLM``)."""
    return frozenset(c.rsplit(".", 1)[-1] for row in FOREIGN_LAUNCHERS.values() for c in row.calls)
