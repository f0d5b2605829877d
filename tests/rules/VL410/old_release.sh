# test-target: 0.11.0
# test-expect: VL410 4 error
# test-expect: VL410 5 warning
vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 1.2
vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 0
