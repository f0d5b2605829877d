# the NVIDIA container runtime gives the container the listed devices
# test-expect: VL402 3 warning
docker run -e NVIDIA_VISIBLE_DEVICES=0,1 vllm/vllm-openai:v0.27.1 --model meta-llama/Llama-3.1-8B-Instruct
