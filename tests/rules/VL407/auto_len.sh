# --max-model-len auto: vLLM fits the length to the memory, so only the weights are compared
# test-args: --gpu NVIDIA-L4 --gpus 1
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len -1
