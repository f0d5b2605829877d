# silent: v0.8.6 was never released; it is older than the newest, so the newest 0.8.x is used
docker run --gpus all vllm/vllm-openai:v0.8.6 --model Qwen/Qwen3-8B
