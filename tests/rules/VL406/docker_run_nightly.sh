# test-expect: VL406 2 warning
docker run --gpus all -p 8000:8000 vllm/vllm-openai:nightly --model Qwen/Qwen3-8B
