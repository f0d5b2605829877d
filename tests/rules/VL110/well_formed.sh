vllm serve m --max-model-len 8192 --enforce-eager
