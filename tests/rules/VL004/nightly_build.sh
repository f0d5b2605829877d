# silent: a nightly build names no release (checked against the newest; --verbose says so)
docker run --gpus all vllm/vllm-openai:nightly-1f2e3d4c5b6a --model Qwen/Qwen3-8B
