# 0.16.0 replaced the TP>=8 heuristic; 0.11.1 predates it; EP and TP 4 are out of scope
# test-target: 0.16.0
VLLM_MOE_USE_DEEP_GEMM=1 vllm serve deepseek-ai/DeepSeek-V3 -tp 8
