# test-args: --gpu NVIDIA-L40S --gpus 1
# test-expect: VL407 3 warning
vllm serve meta-llama/Llama-3.1-70B-Instruct --max-model-len 8192
