# GPUs from `docker run --gpus N` / a device list; `--gpus all` is unknown (silent)
# test-expect: VL402 4 error
# test-expect: VL402 8 error
docker run --gpus 2 --ipc=host vllm/vllm-openai:v0.27.1 --model meta-llama/Llama-3.1-70B-Instruct -tp 4
docker run --gpus 4 vllm/vllm-openai:v0.27.1 --model meta-llama/Llama-3.1-70B-Instruct -tp 4
docker run --gpus all vllm/vllm-openai:v0.27.1 --model meta-llama/Llama-3.1-70B-Instruct -tp 8
docker run --gpus '"device=0,1"' vllm/vllm-openai:v0.27.1 \
  --model meta-llama/Llama-3.1-70B-Instruct -tp 4
podman run --device nvidia.com/gpu=all vllm/vllm-openai:v0.27.1 --model meta-llama/Llama-3.1-70B-Instruct -tp 8
