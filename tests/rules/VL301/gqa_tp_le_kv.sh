# 8 KV heads at TP 8: no replication
vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 8
vllm serve deepseek-ai/DeepSeek-R1 -tp 1
