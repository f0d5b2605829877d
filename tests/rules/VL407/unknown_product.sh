# an A100 whose size is not written: silent
# test-args: --gpu NVIDIA-A100 --gpus 1
vllm serve meta-llama/Llama-3.1-70B-Instruct
