vllm serve m --max-model-len --enforce-eager
