# test-expect: VL501 2 warning
vllm serve meta-llama/Llama-3.1-8B-Instruct --api-key=9f8e7d6c5b4a3210
