docker run --gpus all vllm/vllm-openai:v0.27.1 m --max-model-len 8192
