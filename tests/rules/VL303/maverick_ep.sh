# 1 of 128 experts per token = 0.78%
# test-expect: VL303 4 warning
vllm serve meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8 -tp 8 \
  --enable-expert-parallel \
  --max-model-len 65536
