"""Other tools' launchers of vLLM (vllm_lint/foreign_launchers.py): the table, the command lines each
row recognises, and how their keys map onto vLLM's engine options (one test per row), against the
synthetic database (0.8.5, 0.10.0, 0.27.1)."""

from __future__ import annotations

import json
import re

import pytest

from vllm_lint.argv import ArgvParser, literal_value
from vllm_lint.foreign_launchers import FOREIGN_LAUNCHERS
from vllm_lint.frontends import shell as S
from vllm_lint.frontends.commands import find_vllm_command
from vllm_lint.wrapper_options import WRAPPERS


def test_every_row_says_where_it_was_read_and_keeps_its_keys_apart():
    for entry, row in FOREIGN_LAUNCHERS.items():
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", row.repository), entry
        assert row.read and all(re.search(r"\b[0-9a-f]{9,40}\b", commits) for _p, commits in row.read), entry
        assert row.form in ("options", "key-values", "overrides"), entry
        assert row.programs or row.modules or row.scripts or row.calls, entry
        mapped, own, model = set(row.keys), set(row.own), set(row.model)
        assert not mapped & own and not mapped & model and not own & model, entry
        assert all(re.fullmatch(r"[a-z_]+", f) for f in row.keys.values()), entry
        assert entry not in WRAPPERS  # a program is a wrapper (vLLM's own parser) or a row here, not both


@pytest.mark.parametrize("words, entry, start", [
    ("trl vllm-serve --model m --tensor_parallel_size 2", "trl vllm-serve", 2),
    ("srun -N 1 trl vllm-serve --model m", "trl vllm-serve", 5),
    ("accelerate launch --num_processes 1 trl vllm-serve --model m", "trl vllm-serve", 6),
    ("python -m trl vllm-serve --model m", "trl vllm-serve", 4),
    ("python3 trl/scripts/vllm_serve.py --model m", "trl vllm-serve", 2),
    ("python -m trl.scripts.vllm_serve --model m", "trl vllm-serve", 3),
    ("CUDA_VISIBLE_DEVICES=0 lighteval vllm model_name=m tasks.txt", "lighteval vllm", 3),
    ("python -m lighteval vllm model_name=m t", "lighteval vllm", 4),
    ("lm_eval --model vllm --model_args pretrained=m --tasks gsm8k", "lm_eval vllm", 1),
    ("lm-eval run -M vllm-vlm -a pretrained=m", "lm_eval vllm", 1),
    ("python -m lm_eval --model=vllm --model_args pretrained=m", "lm_eval vllm", 3),
    ("vllm bench latency --model m -tp 2", "vllm bench latency", 3),
    ("python -m vllm.entrypoints.cli.main bench throughput --model m", "vllm bench throughput", 5),
    ("python3 benchmarks/benchmark_latency.py --model m", "vllm benchmark_latency.py", 2),
    ("python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm data.x=1", "verl rollout vllm", 3),
    ("python3 -m verl.trainer.main_ppo data.x=1", "verl rollout vllm", 3),  # vllm: the default before 2025-07
    ("python3 verl/trainer/main_ppo.py ++actor_rollout_ref.rollout.name=vllm", "verl rollout vllm", 2),
    ("python -m openrlhf.cli.train_ppo_ray --pretrain m --vllm_num_engines 2", "openrlhf train_ppo_ray", 3),
    ("ray job submit -- python3 -m openrlhf.cli.train_ppo_ray --vllm.num_engines=$N", "openrlhf train_ppo_ray", 7),
    # a repository's own trainer over verl's (or SkyRL's) configuration: the key is the tool's alone
    ("python -m sp3f.main_grpo +trainer.x=1 actor_rollout_ref.rollout.name=vllm", "verl rollout vllm", 3),
    ("uv run --isolated --extra vllm -m skyrl_train.entrypoints.main_base generator.backend=vllm",
     "skyrl generator vllm", 7),
    ("uv run -m skyrl.train.entrypoints.main_base trainer.policy.model.path=m", "skyrl generator vllm", 4),
    ("uv run -m examples.algorithms.dapo.main_dapo generator.inference_engine.backend=vllm", "skyrl generator vllm", 4),
    ("CUDA_VISIBLE_DEVICES=0 swift deploy --model m --infer_backend vllm", "swift vllm", 2),
    ("llamafactory-cli api --model_name_or_path m --infer_backend vllm", "llamafactory vllm", 1),
])
def test_recognised(words, entry, start):
    found = find_vllm_command(words.split())
    assert found is not None and (found.entry, found.args_start) == (entry, start)


@pytest.mark.parametrize("words", [
    "lm_eval --model hf --model_args pretrained=m",  # another back-end of the same tool
    "lm_eval --model $BACKEND --model_args pretrained=m",
    "lighteval accelerate model_name=m t",
    "trl sft --model_name_or_path m",
    "vllm bench serve --model m",  # a client of a running server: no engine
    "echo trl vllm-serve --model m",
    # another project's script of the same name, without the engine's --model
    "python benchmark_throughput.py --port=8087 --warmup_num_iters 1 --tokenizer_path /m",
    "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=sglang",  # verl with SGLang rollouts
    "python3 -m openrlhf.cli.train_ppo_ray --pretrain m",  # no vLLM engines
    "python3 -m openrlhf.cli.train_ppo_ray --pretrain m --vllm_num_engines 0",
    "python3 train.py data.path=x trainer.n_gpus=8",  # another Hydra program: no key of a row's
    "uv run -m skyrl.train.entrypoints.main_base generator.inference_engine.backend=sglang",
    "uv run -m skyrl.train.entrypoints.main_base generator.inference_engine.backend=$BACKEND",
    "swift infer --model m --infer_backend pt",
    "llamafactory-cli api --model_name_or_path m --infer_backend huggingface",
])
def test_not_recognised(words):
    assert find_vllm_command(words.split()) is None


def parsed(db, script: bytes, version="0.27.1"):
    (launch,) = S.extract(script, "x.sh").launches
    surface = db.surface(version)
    return launch, ArgvParser(surface, db, surface.entry_has_positional_model(launch.entry)).parse(launch)


def spelled(data: bytes, arg) -> str:
    span = arg.report_span
    return data[span.start:span.end].decode()


def test_trl_options_map_to_engine_options(synth_db):
    data = (b"trl vllm-serve --model Qwen/Qwen2.5-7B --tensor-parallel-size 2 --gpu_memory_utilization=0.8 \\\n"
            b"  --dtype bfloat16 --enforce_eager --port 8001 --data_parallel_size 2 --unknown_key 1\n")
    launch, args = parsed(synth_db, data)
    assert launch.entry == "trl vllm-serve" and not launch.opaque
    by = {a.written: a for a in args}
    assert by["model"].positional and by["model"].value == "Qwen/Qwen2.5-7B"
    assert by["tensor_parallel_size"].option.name == "--tensor-parallel-size" and by["tensor_parallel_size"].value == "2"
    assert spelled(data, by["tensor_parallel_size"]) == "--tensor-parallel-size"
    gmu = by["gpu_memory_utilization"]
    assert gmu.value == "0.8" and data[gmu.keyed.value_span.start:gmu.keyed.value_span.end] == b"0.8"
    assert by["enforce_eager"].value == "true" and by["enforce_eager"].how == "mapped"
    # TRL's own keys and keys it does not know are TRL's to judge
    assert not {"port", "unknown_key"} & set(by)
    # its data parallelism is vLLM's (VLLM_DP_SIZE): the GPUs are counted as vLLM counts them
    # (the synthetic releases have no --data-parallel-size: a field the target lacks is left to TRL)
    assert FOREIGN_LAUNCHERS["trl vllm-serve"].keys["data_parallel_size"] == "data_parallel_size"
    assert "data_parallel_size" not in by
    # the names are TRL's: no fix renames or cuts them
    assert all(a.name_span is None for a in args)


def test_lighteval_string_in_a_variable_with_an_expansion(synth_db):
    data = (b'MODEL_ARGS="model_name=$MODEL,dtype=bfloat17,max_model_length=32768,'
            b'generation_parameters={max_new_tokens:32768,temperature:0.6},tensor_parallel_size=2,use_chat_template"\n'
            b'lighteval vllm $MODEL_ARGS "lighteval|aime24|0|0" --output-dir out\n')
    launch, args = parsed(synth_db, data)
    assert launch.entry == "lighteval vllm"
    by = {a.written: a for a in args}
    assert by["model_name"].positional and by["model_name"].value_opaque
    assert by["dtype"].value == "bfloat17" and spelled(data, by["dtype"]) == "dtype"
    vs = by["dtype"].keyed.value_span
    assert data[vs.start:vs.end] == b"bfloat17"
    assert by["max_model_length"].option.name == "--max-model-len" and by["max_model_length"].value == "32768"
    assert by["tensor_parallel_size"].value == "2"
    assert not {"generation_parameters", "use_chat_template"} & set(by)


def test_lighteval_configuration_file_is_left_to_the_run(synth_db):
    launch, args = parsed(synth_db, b"lighteval vllm examples/model_configs/vllm_model_config.yaml tasks\n")
    assert launch.opaque and args == []


def test_lm_eval_passes_unknown_keys_to_llm(synth_db):
    data = (b'lm_eval --model vllm --model_args "pretrained=$M,tensor_parallel_size=2,max_length=4096,'
            b'swap_space=4,num_scheduler_steps=8,enforce_eager=True,batch_size=auto" --tasks gsm8k\n')
    launch, args = parsed(synth_db, data)
    by = {a.written: a for a in args}
    assert by["pretrained"].positional and by["pretrained"].value_opaque
    assert by["max_length"].option.name == "--max-model-len"  # lm-eval's name for max_model_len
    # handed to LLM(**kwargs) as written, typed as lm-eval types them
    assert by["num_scheduler_steps"].style == "kwargs" and by["num_scheduler_steps"].value == 8
    assert by["enforce_eager"].value is True
    assert spelled(data, by["num_scheduler_steps"]) == "num_scheduler_steps"
    assert by["num_scheduler_steps"].name_span is not None  # spelled as vLLM's keyword: a fix may rename it
    assert not {"swap_space", "batch_size"} & set(by)  # lm-eval's own (swap_space: popped with a warning)


def test_lm_eval_json_model_args(synth_db):
    data = b"""lm_eval --model vllm --model_args '{"pretrained": "m", "tensor_parallel_size": 2}' --tasks x\n"""
    _launch, args = parsed(synth_db, data)
    by = {a.written: a for a in args}
    assert by["pretrained"].value == "m" and by["tensor_parallel_size"].value == 2


def test_an_unknown_string_makes_the_launch_opaque(synth_db):
    launch, args = parsed(synth_db, b'lm_eval --model vllm --model_args "$MODEL_ARGS" --tasks x\n')
    assert launch.opaque and args == []


def test_literal_values_as_lm_eval_reads_them():
    assert [literal_value(v) for v in ("True", "false", "None", "4", "-1", "0.9", "'7'", "auto")] == [
        True, False, None, 4, -1, 0.9, "7", "auto"]


def lint(run_cli, path, *extra):
    r = run_cli("--output-format", "json", "-t", "0.27.1", *extra, str(path))
    assert r.exit_code in (0, 1), r.output
    return [(d["code"], d["severity"], d["location"]["row"], d["location"]["column"]) for d in json.loads(r.stdout)]


def test_findings_at_the_tools_keys(run_cli, tmp_path):
    lines = [
        "trl vllm-serve --model m --dtype bfloat17 --swap_space 4 --port 8000",
        "lighteval vllm model_name=m,dtype=bfloat17,swap_space=4,max_model_length=x t",
        "lm_eval --model vllm --model_args pretrained=m,swap_space=4,num_scheduler_steps=8,enforce_eagr=1 --tasks t",
        "vllm bench latency --model m --input-len 32 --num-iters 3 --swap-space 4 --dtype bfloat17",
    ]
    f = tmp_path / "eval.sh"
    f.write_text("\n".join(lines) + "\n")

    def at(row, word):
        return row, lines[row - 1].index(word) + 1

    got = {(c, s, r, col) for c, s, r, col in lint(run_cli, f, "--select", "VL101,VL103,VL105")}
    assert got == {
        ("VL105", "error", *at(1, "bfloat17")),  # TRL hands dtype to vLLM unchanged
        ("VL105", "error", *at(2, "bfloat17")),  # lighteval too
        ("VL105", "error", *at(2, "x t")),  # max_model_length=x: vLLM's max_model_len refuses `x`
        ("VL101", "error", *at(3, "num_scheduler_steps")),  # lm-eval hands it to LLM(...)
        ("VL103", "error", *at(3, "enforce_eagr")),  # and this, which no release takes
        ("VL101", "error", *at(4, "--swap-space")),  # the benchmark reads vLLM's own options
        ("VL105", "error", *at(4, "bfloat17")),
    }  # the tools' own keys (TRL's --port, swap_space, the benchmark's --input-len) are never reported


def test_verbose_names_the_tool(run_cli, tmp_path):
    f = tmp_path / "serve.sh"
    f.write_text("echo start\ntrl vllm-serve --model m\n")
    r = run_cli("--verbose", "-t", "0.27.1", str(f))
    assert "read as TRL's launcher of vLLM (`trl vllm-serve`) at line 2" in r.output


def test_benchmark_script_copied_and_run_by_name_in_a_loop(synth_db):
    # no "vllm" in the file at all: the script's name is what shows the launch
    data = (b"for tp in 1 2 4; do\n"
            b"  python3 benchmark_latency.py --model=$model --tensor-parallel-size=$tp --dtype=float17 --num-iters=5\n"
            b"done\n")
    launch, args = parsed(synth_db, data)
    assert launch.entry == "vllm benchmark_latency.py"
    assert [a.canonical for a in args] == ["--model", "--tensor-parallel-size", "--dtype"]  # --num-iters: its own
    assert spelled(data, args[2]) == "--dtype=float17"


def test_python_calls_of_the_tools(synth_db):
    from vllm_lint.frontends.python import extract as py_extract

    data = (b"import lm_eval\n"
            b"from distilabel.models import vLLM\n"
            b"lm_eval.simple_evaluate(model=\"vllm\", model_args=\"pretrained=m,tensor_parallel_size=2,foo_bar=1\")\n"
            b"lm_eval.simple_evaluate(model=\"hf\", model_args=\"pretrained=m,foo_bar=1\")\n"
            b"llm = vLLM(model=\"m\", dtype=\"half\", chat_template=\"t\",\n"
            b"           extra_kwargs={\"tensor_parallel_size\": 2, \"swap_space\": 4})\n")
    launches = py_extract(data, "x.py").launches
    assert [la.entry for la in launches] == ["lm_eval vllm", "distilabel vLLM"]  # (model="hf": not vLLM)
    surface = synth_db.surface("0.27.1")
    lm, dl = (ArgvParser(surface, synth_db).parse(la) for la in launches)
    by = {a.written: a for a in lm}
    assert by["pretrained"].positional and by["tensor_parallel_size"].value == "2"
    assert by["foo_bar"].how == "unknown" and spelled(data, by["foo_bar"]) == "foo_bar"
    by = {a.written: a for a in dl}
    assert by["model"].positional and by["dtype"].how == "mapped" and by["dtype"].value == "half"
    assert "chat_template" not in by  # distilabel's own
    assert by["tensor_parallel_size"].value == 2 and by["swap_space"].style == "kwargs"  # handed on whole


def test_a_copied_benchmark_script_may_have_options_of_its_own(run_cli, tmp_path):
    # the copy's own options are not all known (scripts of older releases): an option no vLLM
    # release knows is left to it; vLLM's own `vllm bench` refuses it
    f = tmp_path / "bench.sh"
    f.write_text("python benchmark_throughput.py --model m --batch-size 8 --max-num 4 --swap-space 4\n"
                 "vllm bench throughput --model m --batch-size 8 --max-num 4\n")
    got = {(c, r) for c, _s, r, _c in lint(run_cli, f, "--select", "VL101,VL103,VL107")}
    assert got == {("VL101", 1), ("VL103", 2), ("VL107", 2)}


def test_verl_hydra_overrides(synth_db):
    data = (b"python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo actor_rollout_ref.model.path=Qwen/Q \\\n"
            b"  actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.tensor_model_parallel_size=2 \\\n"
            b"  actor_rollout_ref.rollout.gpu_memory_utilization=0.6 actor_rollout_ref.rollout.enforce_eager=True \\\n"
            b"  actor_rollout_ref.rollout.enable_chunked_prefill=False actor_rollout_ref.rollout.max_model_len=null \\\n"
            b"  actor_rollout_ref.rollout.n=5 actor_rollout_ref.rollout.max_num_seqs='${oc.env:SEQS}' \\\n"
            b"  +actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space=4 --config-name ppo\n")
    launch, args = parsed(synth_db, data)
    assert launch.entry == "verl rollout vllm" and not launch.opaque
    by = {a.written: a for a in args}
    assert by["actor_rollout_ref.model.path"].positional and by["actor_rollout_ref.model.path"].value == "Qwen/Q"
    tp = by["actor_rollout_ref.rollout.tensor_model_parallel_size"]
    assert tp.option.name == "--tensor-parallel-size" and tp.value == "2"
    assert spelled(data, tp) == "actor_rollout_ref.rollout.tensor_model_parallel_size"
    assert by["actor_rollout_ref.rollout.gpu_memory_utilization"].value == "0.6"
    assert by["actor_rollout_ref.rollout.enforce_eager"].value == "true"  # True: the switch given
    # False and null: verl hands vLLM no word for them; ${...}: Hydra's interpolation, left to the run
    assert not {"actor_rollout_ref.rollout.enable_chunked_prefill", "actor_rollout_ref.rollout.max_model_len"} & set(by)
    assert by["actor_rollout_ref.rollout.max_num_seqs"].value_opaque
    # verl's own keys and every other part of the configuration: never vLLM's
    assert not {"algorithm.adv_estimator", "actor_rollout_ref.rollout.n", "actor_rollout_ref.rollout.name"} & set(by)
    # engine_kwargs.vllm.*: handed to vLLM under vLLM's own name, as a keyword argument of the engine
    sw = by["swap_space"]
    assert sw.style == "kwargs" and sw.value == 4 and spelled(data, sw) == "swap_space"


def test_openrlhf_options_both_spellings(synth_db):
    data = (b"python3 -m openrlhf.cli.train_ppo_ray --pretrain meta-llama/Llama-3.1-8B --vllm_num_engines 4 \\\n"
            b"  --vllm_tensor_parallel_size 2 --vllm_gpu_memory_utilization 0.5 --enforce_eager --vllm_sync_backend nccl\n"
            b"python3 -m openrlhf.cli.train_ppo_ray --actor.model_name_or_path m --vllm.num_engines 2 \\\n"
            b"  --vllm.tensor_parallel_size=4 --data.max_len 8192 --vllm.enable_sleep\n")
    old, new = S.extract(data, "x.sh").launches
    surface = synth_db.surface("0.27.1")
    by = {a.written: a for a in ArgvParser(surface, synth_db).parse(old)}
    assert by["pretrain"].positional and by["pretrain"].value == "meta-llama/Llama-3.1-8B"
    assert by["vllm_tensor_parallel_size"].option.name == "--tensor-parallel-size"
    assert by["vllm_gpu_memory_utilization"].value == "0.5" and by["enforce_eager"].value == "true"
    assert not {"vllm_num_engines", "vllm_sync_backend"} & set(by)  # OpenRLHF's own
    by = {a.written: a for a in ArgvParser(surface, synth_db).parse(new)}
    assert by["actor.model_name_or_path"].positional
    assert by["vllm.tensor_parallel_size"].value == "4" and by["data.max_len"].option.name == "--max-model-len"
    assert "vllm.num_engines" not in by


def test_verbose_names_the_rl_trainers(run_cli, tmp_path):
    f = tmp_path / "train.sh"
    f.write_text("python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm\n"
                 "python3 -m openrlhf.cli.train_ppo_ray --pretrain m --vllm_num_engines 1\n")
    r = run_cli("--verbose", "-t", "0.27.1", str(f))
    assert "read as verl's launcher of vLLM (`verl rollout vllm`) at line 1" in r.output
    assert "read as OpenRLHF's launcher of vLLM (`openrlhf train_ppo_ray`) at line 2" in r.output


def test_skyrl_generator_keys_both_layouts(synth_db):
    data = (b"uv run --isolated --extra vllm -m skyrl_train.entrypoints.main_base trainer.policy.model.path=Qwen/Q \\\n"
            b"  generator.inference_engine_tensor_parallel_size=2 generator.gpu_memory_utilization=0.8 \\\n"
            b"  generator.num_inference_engines=4 generator.model_dtype=bfloat17\n"
            b"uv run -m skyrl.train.entrypoints.main_base generator.inference_engine.tensor_parallel_size=4 \\\n"
            b"  generator.inference_engine.num_engines=2 generator.inference_engine.enforce_eager=true\n")
    old, new = S.extract(data, "x.sh").launches
    surface = synth_db.surface("0.27.1")
    by = {a.written: a for a in ArgvParser(surface, synth_db).parse(old)}
    assert by["trainer.policy.model.path"].positional and by["trainer.policy.model.path"].value == "Qwen/Q"
    assert by["generator.inference_engine_tensor_parallel_size"].option.name == "--tensor-parallel-size"
    assert by["generator.model_dtype"].option.name == "--dtype" and by["generator.model_dtype"].value == "bfloat17"
    assert "generator.num_inference_engines" not in by  # SkyRL's own
    by = {a.written: a for a in ArgvParser(surface, synth_db).parse(new)}
    assert by["generator.inference_engine.tensor_parallel_size"].value == "4"
    assert by["generator.inference_engine.enforce_eager"].value == "true"
    assert "generator.inference_engine.num_engines" not in by


def test_swift_and_llamafactory_vllm_options(synth_db):
    data = (b"swift deploy --model Qwen/Q --infer_backend vllm --vllm_tensor_parallel_size 2 \\\n"
            b"  --vllm_max_model_len 8192 --vllm_enforce_eager true --vllm_use_async_engine true --port 8000\n"
            b"llamafactory-cli api --model_name_or_path m --template llama3 --infer_backend vllm --vllm_maxlen 4096 \\\n"
            b"  --vllm_gpu_util 0.8 --vllm_config '{\"swap_space\": 4}'\n")
    swift, lmf = S.extract(data, "x.sh").launches
    surface = synth_db.surface("0.27.1")
    by = {a.written: a for a in ArgvParser(surface, synth_db).parse(swift)}
    assert by["model"].positional and by["model"].value == "Qwen/Q"
    assert by["vllm_tensor_parallel_size"].option.name == "--tensor-parallel-size"
    assert by["vllm_max_model_len"].value == "8192" and by["vllm_enforce_eager"].value == "true"
    assert not {"infer_backend", "vllm_use_async_engine", "port"} & set(by)  # swift's own
    by = {a.written: a for a in ArgvParser(surface, synth_db).parse(lmf)}
    assert by["model_name_or_path"].positional
    assert by["vllm_maxlen"].option.name == "--max-model-len" and by["vllm_gpu_util"].value == "0.8"
    assert not {"template", "vllm_config"} & set(by)  # (vllm_config: a mapping of its own, not read)


def test_a_broken_continuation_names_the_tool(run_cli, tmp_path):
    f = tmp_path / "train.sh"
    f.write_text("python3 -m openrlhf.cli.train_ppo_ray --pretrain m --vllm_num_engines 2 \\\n"
                 "  --enforce_eager\n"
                 "  --use_wandb token\n")
    r = run_cli("--output-format", "json", "-t", "0.27.1", "--select", "VL109", str(f))
    (d,) = json.loads(r.stdout)
    assert d["message"].startswith("`--use_wandb` is cut off from the OpenRLHF command by a broken line continuation")


def test_a_benchmarks_own_options_in_underscore_spelling_are_its_own(run_cli, tmp_path):
    """`vllm bench throughput` parses with vLLM's FlexibleArgumentParser, which rewrites
    `--dataset_path` to `--dataset-path` before the benchmark's own option takes it."""
    f = tmp_path / "bench.sh"
    f.write_text("vllm bench throughput --model m --dataset_path d.json --dataset_name sharegpt --num_prompts 10 "
                 "--max_num_seqs 8 --not_an_option 1\n")
    got = lint(run_cli, f, "--select", "VL103")
    assert [c for c, *_ in got] == ["VL103"]  # only --not_an_option
