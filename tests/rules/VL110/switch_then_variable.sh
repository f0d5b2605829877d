vllm serve m --enforce-eager $EXTRA
