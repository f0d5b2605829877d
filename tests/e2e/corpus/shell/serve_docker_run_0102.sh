#!/usr/bin/env bash
# Serve Llama 3.1 8B on one node. Bumped the image from v0.8.5 last sprint.
set -euo pipefail

MODEL=${MODEL:-meta-llama/Llama-3.1-8B-Instruct}
PORT=8000

docker run -d --name vllm-llama \
  --gpus all \
  --ipc=host \
  -p ${PORT}:8000 \
  -v ~/.cache/huggingface:/root/.cache/huggingface \
  -e HF_TOKEN="${HF_TOKEN}" \
  -e VLLM_ATTENTION_BACKEND=FLASHINFER \
  vllm/vllm-openai:v0.10.2 \
  --model "$MODEL" \
  --swap-space 16 \
  --num-scheduler-steps 10 \
  --max-seq-len-to-capture 8192 \
  --gpu-memory-utilization 0.92 \
  --disable-log-requests

docker logs -f vllm-llama
