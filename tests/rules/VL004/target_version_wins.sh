# silent: --target-version chooses the release, the image tag is not used
# test-target: 0.10.0
docker run --gpus all vllm/vllm-openai:v0.34.0 --model Qwen/Qwen3-8B
