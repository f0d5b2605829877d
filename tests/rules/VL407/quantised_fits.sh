# the FP8 re-upload is half the bytes: 8 GiB of weights + 8 GiB of fp8 KV cache fit in 24 x 0.9
# test-args: --gpu NVIDIA-L4 --gpus 1
vllm serve RedHatAI/Llama-3.1-8B-Instruct-FP8-dynamic --kv-cache-dtype fp8
