# 64 heads, 8 KV heads: TP 8 and TP 16 (kv replicated) are valid; hidden size is not checked
vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 8
vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 16
vllm serve openai/gpt-oss-120b -tp 4
