# test-expect: VL306 2 info
vllm serve meta-llama/Llama-3.1-8B-Instruct -O0
