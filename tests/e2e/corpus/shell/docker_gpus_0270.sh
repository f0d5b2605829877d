#!/usr/bin/env bash
# two GPUs for a tensor-parallel size of 4: the container cannot start all workers
docker run -d --name llama70b --gpus '"device=0,1"' --ipc=host -p 8000:8000 \
  vllm/vllm-openai:v0.27.1 \
  --model meta-llama/Llama-3.1-70B-Instruct \
  --tensor-parallel-size 4
