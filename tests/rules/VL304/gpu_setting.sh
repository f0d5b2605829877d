# the GPU product from --gpu
# test-args: --gpu GB300
# test-expect: VL304 4 warning
NCCL_CUMEM_ENABLE=0 vllm serve deepseek-ai/DeepSeek-R1 -tp 4
