# EP with the release's default all-gather/reduce-scatter backend: informational
# test-expect: VL302 3 info
vllm serve Qwen/Qwen3-235B-A22B -tp 8 --enable-expert-parallel --gpu-memory-utilization 0.95
