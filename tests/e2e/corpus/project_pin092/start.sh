#!/usr/bin/env bash
# version comes from requirements.txt next to this script
exec vllm serve "$MODEL_PATH" \
  --served-model-name chat \
  --task generate \
  --enable-reasoning --reasoning-parser deepseek_r1 \
  --kv-cache-dtype fp8 \
  $EXTRA_ARGS
