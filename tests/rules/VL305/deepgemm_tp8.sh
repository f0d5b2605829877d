# test-target: 0.14.1
# test-expect: VL305 3 info
VLLM_MOE_USE_DEEP_GEMM=1 vllm serve deepseek-ai/DeepSeek-V3 -tp 8
