# test-target: 0.10.0
# before --all2all-backend, the backend came from VLLM_ALL2ALL_BACKEND
# test-expect: VL302 5 warning
VLLM_ALL2ALL_BACKEND=pplx vllm serve deepseek-ai/DeepSeek-R1 -dp 8 --enable-expert-parallel \
  --gpu-memory-utilization 0.95
