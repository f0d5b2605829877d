#!/bin/bash
# the module entrypoint, deprecated from 0.29.0: each start moves to `vllm serve`
# test-target: 0.34.0
# test-expect: VL113 7 warning
# test-expect: VL113 8 warning
# test-expect: VL113 9 warning
python3 -m vllm.entrypoints.openai.api_server --model org/m --port 8000
CUDA_VISIBLE_DEVICES=0 python -m vllm.entrypoints.openai.api_server --model org/m
nohup python3.11 -u -m vllm.entrypoints.openai.api_server \
    --model org/m \
    --tensor-parallel-size 2 &
vllm serve org/m --port 8001
