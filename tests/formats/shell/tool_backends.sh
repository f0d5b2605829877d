#!/bin/bash
# Serving and fine-tuning tools whose vLLM back-end takes vLLM's settings under their own names
# (ms-swift's --vllm_*, LLaMA-Factory's vllm_maxlen / vllm_gpu_util): checked as the engine
# options they set (85: a percentage where vLLM takes a fraction); their own options (--template,
# --port, --infer_backend) stay silent.
CUDA_VISIBLE_DEVICES=0,1 swift deploy \
    --model Qwen/Qwen2.5-7B-Instruct \
    --infer_backend vllm \
    --vllm_tensor_parallel_size 2 \
    --vllm_gpu_memory_utilization 1.9 \
    --vllm_max_model_len 8192 \
    --port 8000

# the same tool with its PyTorch back-end: not vLLM's
swift infer --model Qwen/Qwen2.5-7B-Instruct --infer_backend pt --vllm_gpu_memory_utilization 1.9

API_PORT=8000 llamafactory-cli api \
    --model_name_or_path meta-llama/Llama-3.1-8B-Instruct \
    --template llama3 \
    --infer_backend vllm \
    --vllm_maxlen 4096 \
    --vllm_gpu_util 85 \
    --vllm_enforce_eager
