# test-target: 0.17.0
vllm serve meta-llama/Llama-3.1-70B-Instruct --async-scheduling --speculative-config '{"method": "draft_model", "model": "meta-llama/Llama-3.2-1B-Instruct"}'
