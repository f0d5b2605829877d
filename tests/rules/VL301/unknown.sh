vllm serve acme/mla-thing -tp 8
