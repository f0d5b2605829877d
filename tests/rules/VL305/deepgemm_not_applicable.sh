# test-target: 0.12.0
VLLM_MOE_USE_DEEP_GEMM=1 vllm serve deepseek-ai/DeepSeek-V3 -tp 4
VLLM_MOE_USE_DEEP_GEMM=1 vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --enable-expert-parallel
VLLM_MOE_USE_DEEP_GEMM=1 vllm serve Qwen/Qwen3-235B-A22B -tp 8
VLLM_MOE_USE_DEEP_GEMM=0 vllm serve deepseek-ai/DeepSeek-V3 -tp 8
