#!/bin/bash
# a Slurm job's GPU request is the launch's: 4 GPUs, tp 2 leaves 2 idle
#SBATCH --job-name=serve
#SBATCH --nodes=1
#SBATCH --gres=gpu:a100:4
# test-expect: VL402 9 warning
module load cuda
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --tensor-parallel-size 2 --port 8000
