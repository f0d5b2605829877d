vllm serve m -tp 2 --max-model-len 8192
