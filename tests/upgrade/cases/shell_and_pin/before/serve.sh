#!/bin/bash
# serve the chat model
docker run --gpus 2 -p 8000:8000 vllm/vllm-openai:v0.8.5 \
  --model meta-llama/Llama-3.1-8B-Instruct \
  --swap-space 16 \
  --num-scheduler-steps 8 \
  --cuda-graph-sizes 1 2 4 \
  --tensor-parallel-size 2
