# the guide's stricter threshold, opted into: 0.88 is over it where the mechanism applies
# test-args: --config {here}/guide.toml
# test-expect: VL302 4 warning
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --all2all-backend deepep_low_latency --gpu-memory-utilization 0.88
