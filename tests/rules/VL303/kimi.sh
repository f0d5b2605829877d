# silent with the default 2% threshold (2.08%)
vllm serve moonshotai/Kimi-K2-Instruct -dp 16 --enable-expert-parallel
