#!/bin/bash
# serve the chat model
docker run --gpus 2 -p 8000:8000 vllm/vllm-openai:v0.27.1 \
  meta-llama/Llama-3.1-8B-Instruct \
  --cudagraph-capture-sizes 1 2 4 \
  --tensor-parallel-size 2
