# EP with the release's default all-gather/reduce-scatter backend: no separate buffers, no finding
vllm serve Qwen/Qwen3-235B-A22B -tp 8 --enable-expert-parallel --gpu-memory-utilization 0.95
