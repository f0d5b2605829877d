# test-target: 0.14.1
vllm serve meta-llama/Llama-3.1-8B-Instruct --async-scheduling --speculative-config '{"method": "eagle3", "model": "x/y"}'
vllm serve deepseek-ai/DeepSeek-R1 --async-scheduling --speculative-config '{"method": "deepseek_mtp", "num_speculative_tokens": 1}'
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram"}'
