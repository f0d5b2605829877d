# Start vLLM in Docker on a Windows workstation
docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.27.1 `
  Qwen/Qwen2.5-7B-Instruct `
  --max-model-len 8192
