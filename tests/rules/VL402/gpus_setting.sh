# GPUs from --gpus; tp x pp x dp = 16 > 8
# test-args: --gpus 8
# test-expect: VL402 4 error
vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 8 -dp 2
