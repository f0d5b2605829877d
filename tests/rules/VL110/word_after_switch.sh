vllm serve m --enforce-eager true
