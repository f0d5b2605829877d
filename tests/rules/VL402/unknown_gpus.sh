vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 8
