#!/usr/bin/env bash
# Launch script written for vLLM 0.8.5, now deployed on a newer image.
set -euo pipefail
export VLLM_USE_V1=0
export VLLM_WORKER_MULTIPROC_METHOD=spawn

exec vllm serve meta-llama/Llama-3.1-70B-Instruct \
  --tensor-parallel-size 8 \
  --swap-space 16 \
  --num-scheduler-steps 8 \
  --cuda-graph-sizes 1 2 4 8 16 \
  --max-model-len 32768 \
  --gpu-memory-utilization 0.92 \
  --port 8000
