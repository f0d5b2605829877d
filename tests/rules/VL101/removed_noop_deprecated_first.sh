# the same no-op after its removal: VL101 removes it too, one policy before and after
# test-expect: VL101 3 error
vllm serve m --tokenizer-pool-size 4 --port 8000
