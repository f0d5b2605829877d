#!/bin/sh
# fixcheck: origin=0.6.6.post1
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --tensor-parallel-size 2 \
  --swap-space 16 \
  --use-v2-block-manager \
  --max-model-len 8192
