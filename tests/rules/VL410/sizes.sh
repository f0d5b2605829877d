# test-expect: VL410 3 error
# test-expect: VL410 4 error
vllm serve Qwen/Qwen3-8B --cpu-offload-gb -4
vllm serve Qwen/Qwen3-8B -tp 0
