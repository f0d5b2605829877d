#!/usr/bin/env bash
# Disaggregated serving with NVIDIA Dynamo: Dynamo's own options sit beside vLLM's engine options
pip install vllm==0.27.1
python -m dynamo.frontend --http-port 8000 &

CUDA_VISIBLE_DEVICES=0 python3 -m dynamo.vllm --model Qwen/Qwen3-8B --connector kvbm nixl \
  --endpoint dyn://dynamo.backend.generate --enforce-eager &

CUDA_VISIBLE_DEVICES=1 python3 -m dynamo.vllm \
  --model Qwen/Qwen3-8B \
  --is-prefill-worker \
  --migration-limit 3 \
  --guided-decoding-backend xgrammar \
  --swap-space 4 \
  --no-use-vllm-tokenizer \
  --dyn-tool-call-parser hermes
