# dense model, and a MoE model below the threshold: silent
vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.97
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --all2all-backend deepep_low_latency --gpu-memory-utilization 0.9
vllm serve acme/unknown-moe --gpu-memory-utilization 0.99
