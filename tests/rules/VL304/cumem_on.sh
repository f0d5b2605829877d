# test-args: --gpu GB200
NCCL_CUMEM_ENABLE=1 vllm serve deepseek-ai/DeepSeek-R1 -tp 4
