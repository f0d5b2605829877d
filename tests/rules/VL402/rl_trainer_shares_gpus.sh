#!/bin/bash
#SBATCH --gpus-per-node=8
# An RL trainer: the actor trains on all 8 GPUs, the vLLM rollout takes groups of 2 of them. No GPU
# is idle, so no idle-GPU warning.
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=2 \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct \
    trainer.n_gpus_per_node=8
