#!/bin/sh
vllm serve m \
  --tensor-parallel-size 2 \
  --max-model-len 4096
