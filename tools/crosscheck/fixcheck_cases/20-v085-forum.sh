#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve Qwen/Qwen2.5-32B-Instruct \
  --tensor-parallel-size 4 \
  --swap-space 16 \
  --num-scheduler-steps 8 \
  --disable-log-requests \
  --guided-decoding-backend xgrammar \
  --max-model-len 32768
