vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 0.85 --cpu-offload-gb 0 -tp 2
vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 1 --max-model-len 8192
