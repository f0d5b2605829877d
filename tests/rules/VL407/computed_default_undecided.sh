# --kv-cache-memory-bytes sizes the KV cache at 0.34.0: the utilization is not used, and the rule
# cannot decide the budget (it says so with --verbose) and stays silent
# test-target: 0.34.0
# test-args: --gpu NVIDIA-H100-80GB-HBM3 --gpus 1
vllm serve meta-llama/Llama-3.1-70B-Instruct --kv-cache-memory-bytes 20G
