# test-target: 0.10.0
export VLLM_ATTENTION_BACKEND=FLASH_ATTN
vllm serve m
