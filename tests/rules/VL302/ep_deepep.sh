# EP with a DeepEP backend at 0.95: warning
# test-expect: VL302 4 warning
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --all2all-backend deepep_low_latency \
  --gpu-memory-utilization 0.95
