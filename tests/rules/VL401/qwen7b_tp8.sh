# 28 heads: TP 8 does not divide them
# test-expect: VL401 3 error
vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 8
