# MoE without EP: informational (no evidence that 0.95 fails)
# test-expect: VL302 3 info
vllm serve Qwen/Qwen3-30B-A3B --gpu-memory-utilization=0.96
