vllm serve acme/moe-1-of-512 -tp 8 --enable-expert-parallel
