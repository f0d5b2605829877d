# 32K = 32768 is exactly the limit; 33k = 33000 is above it
# test-expect: VL403 4 error
vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 32K
vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len=33k
