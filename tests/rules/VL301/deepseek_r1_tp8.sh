# MLA: every TP rank holds the whole KV cache
# test-expect: VL301 3 warning
vllm serve deepseek-ai/DeepSeek-R1 -tp 8
