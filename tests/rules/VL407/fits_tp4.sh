# test-args: --gpu NVIDIA-H100-80GB-HBM3 --gpus 4
vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 --max-model-len 32768
