vllm serve m --enforce-eager --no-enforce-eager
