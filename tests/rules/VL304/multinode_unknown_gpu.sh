# test-expect: VL304 2 info
NCCL_CUMEM_ENABLE=0 vllm serve deepseek-ai/DeepSeek-R1 -tp 4 --nnodes 2
