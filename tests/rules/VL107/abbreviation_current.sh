vllm serve m --max-model 8192
