# MoE without EP: the all-to-all buffer mechanism does not apply, so no finding (--verbose says why)
vllm serve Qwen/Qwen3-30B-A3B --gpu-memory-utilization=0.96
