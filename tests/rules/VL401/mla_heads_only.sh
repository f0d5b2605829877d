# Kimi-K2 is MLA: only heads are checked (64 % 16 == 0)
vllm serve moonshotai/Kimi-K2-Instruct -tp 16
