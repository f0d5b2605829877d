# test-target: 0.8.5
export VLLM_ATTENTION_BACKEND=FLASH_ATTN
vllm serve m
