#!/usr/bin/env bash
set -e
pip install 'vllm==0.20.0'

# FlashInfer was faster for us on L40S
export VLLM_ATTENTION_BACKEND=FLASHINFER
export NCCL_DEBUG=WARN

env VLLM_LOGGING_LEVEL=DEBUG vllm serve google/gemma-2-9b-it \
  --dtype bfloat16 \
  --max-model-len 8192 \
  --gpu-memory-utilization 0.9 \
  --enable-chunked-prefill
