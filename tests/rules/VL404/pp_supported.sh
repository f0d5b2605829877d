# test-target: 0.15.0
vllm serve meta-llama/Llama-3.1-70B-Instruct -pp 2 --async-scheduling
vllm serve meta-llama/Llama-3.1-70B-Instruct -pp 2 --no-async-scheduling
