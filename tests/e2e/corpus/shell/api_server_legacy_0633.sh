#!/bin/sh
# Old-school launcher from our 2024 cluster, still used for the 13B model.
# pip install vllm==0.6.3.post1
pip install "vllm==0.6.3.post1"

CUDA_VISIBLE_DEVICES=0,1 python -m vllm.entrypoints.openai.api_server \
  --model mistralai/Mistral-7B-Instruct-v0.3 \
  --tensor-parallel-size 2 \
  --worker-use-ray \
  --use-v2-block-manager \
  --tokenizer-pool-size 4 \
  --swap-space 8 \
  --max-num-seqs 128
