vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size "$TP"
