# 40 heads divide by 4, but 10 KV heads: neither 10 % 4 nor 4 % 10
# test-expect: VL401 3 error
vllm serve microsoft/phi-4 -tp 4
