# Start vLLM in Docker on a Windows workstation
docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.8.5 `
  --model Qwen/Qwen2.5-7B-Instruct `
  --swap-space 8 `
  --max-model-len 8192
