#!/usr/bin/env bash
# A start script: exported variables, a continued command line, a removed option and a bad value.
set -euo pipefail

export VLLM_USE_V1=1
MODEL="${MODEL:-meta-llama/Llama-3.1-8B-Instruct}"

exec vllm serve "$MODEL" \
  --tensor-parallel-size 2 \
  --swap-space 16 \
  --dtype bf16 \
  --max-model-len 8192 \
  --port 8000
