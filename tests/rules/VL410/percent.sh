# test-expect: VL410 2 error
vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 90
