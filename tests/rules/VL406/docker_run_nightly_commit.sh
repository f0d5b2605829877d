# silent: a nightly-<commit> tag names one build, which does not move
docker run --gpus all -p 8000:8000 vllm/vllm-openai:nightly-0123abcd4567 --model Qwen/Qwen3-8B
