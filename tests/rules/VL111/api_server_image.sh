# test-target: 0.10.0
docker run --gpus all vllm/vllm-openai:v0.10.0 --model m --max-model-len 8192
