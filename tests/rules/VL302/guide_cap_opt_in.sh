# the guide's stricter threshold, opted into
# test-args: --config {here}/guide.toml
# test-expect: VL302 4 info
vllm serve Qwen/Qwen3-30B-A3B --gpu-memory-utilization 0.88
