# DeepSeek-R1 3.125%, Qwen3 6.25%, Kimi-K2 2.08%: above the 2% default
vllm serve deepseek-ai/DeepSeek-R1 -dp 8 --enable-expert-parallel
vllm serve Qwen/Qwen3-235B-A22B -tp 8 --enable-expert-parallel
vllm serve moonshotai/Kimi-K2-Instruct -dp 16 --enable-expert-parallel
vllm serve meta-llama/Llama-4-Maverick-17B-128E-Instruct -tp 8
vllm serve meta-llama/Llama-4-Maverick-17B-128E-Instruct -tp 8 --no-enable-expert-parallel
