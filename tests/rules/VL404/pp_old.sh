# test-target: 0.14.1
# test-expect: VL404 3 error
vllm serve meta-llama/Llama-3.1-70B-Instruct -pp 2 --async-scheduling
