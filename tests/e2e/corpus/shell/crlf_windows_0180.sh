#!/usr/bin/env bash
# written on Windows, deployed with the v0.18.0 image
docker run --gpus all vllm/vllm-openai:v0.18.0 \
  --model Qwen/Qwen2.5-3B-Instruct \
  --swap-space 4 \
  --max-model-len 4096
