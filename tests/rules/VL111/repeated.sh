docker run --gpus all vllm/vllm-openai:v0.27.1 vllm serve m --max-model-len 8192
