# silent: the database has 0.10.0
docker run --gpus all vllm/vllm-openai:v0.10.0 --model Qwen/Qwen3-8B
