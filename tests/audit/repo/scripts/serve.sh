#!/usr/bin/env bash
# The script pins its release; a switch that now takes a value, -O read as another option.
pip install vllm==0.8.5
export VLLM_HOST_IP=10.0.0.1
vllm serve org/chat-model \
  --enable-prefix-caching \
  --guided-decoding-backend xgrammar \
  -O3 \
  --port 8000
