# 4 KV heads at TP 8: 2x replication (vLLM docs), informational
# test-expect: VL301 3 info
vllm serve Qwen/Qwen3-235B-A22B -tp 8
