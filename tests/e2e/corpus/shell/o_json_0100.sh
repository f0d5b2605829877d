#!/usr/bin/env bash
pip install vllm==0.10.0
# -O takes the compilation config here (0.10): level 3 with a JSON override
vllm serve Qwen/Qwen3-4B -O3 --compilation-config '{"level": 3, "cudagraph_capture_sizes": [1, 2, 4]}'
vllm serve Qwen/Qwen3-4B -O '{"level": 3}' --optimization-level 2
