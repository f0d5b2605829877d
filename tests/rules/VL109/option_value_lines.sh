# a line of `--opt=value` reads as an assignment to the shell grammar: it is cut off all the same,
# and so is every option line after it
# test-expect: VL109 6 warning
vllm serve m \
  --port 8000
  --max-model-len 4096
  --dtype=auto
  --kv-cache-dtype=fp8 --enforce-eager
  --gpu-memory-utilization 0.9
  --max-num-seqs 64
