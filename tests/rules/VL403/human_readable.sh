# 128k = 128000 > 32768
# test-expect: VL403 3 error
vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 128k
