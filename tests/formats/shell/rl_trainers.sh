#!/bin/bash
# RL trainers that start vLLM for their rollouts: the engine settings they hand to vLLM are checked
# at their own spelling (verl's Hydra overrides, OpenRLHF's --vllm_* options); their own keys
# (rollout.n, free_cache_engine, --colocate_all_models, --vllm_sync_backend) stay silent.
set -x
MODEL_PATH=/models/Qwen2.5-7B-Instruct

# verl GRPO: the rollout's settings as Hydra overrides, vLLM's own under engine_kwargs.vllm
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=1024 \
    actor_rollout_ref.model.path=$MODEL_PATH \
    actor_rollout_ref.actor.optim.lr=1e-6 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=2 \
    actor_rollout_ref.rollout.gpu_memory_utilization=1.6 \
    actor_rollout_ref.rollout.dtype=bfloat17 \
    actor_rollout_ref.rollout.enforce_eager=False \
    actor_rollout_ref.rollout.free_cache_engine=True \
    actor_rollout_ref.rollout.n=5 \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space=4 \
    +actor_rollout_ref.rollout.engine_kwargs.vllm.enable_chunked_prefil=True \
    trainer.n_gpus_per_node=8 "$@"

# the same trainer with SGLang rollouts: not vLLM's
python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=sglang \
    actor_rollout_ref.rollout.gpu_memory_utilization=1.6

# OpenRLHF: vLLM engines when --vllm_num_engines is given
ray job submit --address="http://127.0.0.1:8265" -- python3 -m openrlhf.cli.train_ppo_ray \
    --pretrain $MODEL_PATH \
    --vllm_num_engines 4 \
    --vllm_tensor_parallel_size 2 \
    --vllm_gpu_memory_utilization 1.5 \
    --vllm_sync_backend nccl \
    --colocate_all_models \
    --vllm_enable_sleep \
    --enforce_eager \
    --max_len 4096
