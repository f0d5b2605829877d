# 0.34.0 leaves --gpu-memory-utilization unset (decided at start): on an H100 (CUDA) that is 1.0
# with the extensible KV cache, and 70B at bf16 (131 GiB) still does not fit in 80 GiB
# test-target: 0.34.0
# test-args: --gpu NVIDIA-H100-80GB-HBM3 --gpus 1
# test-expect: VL407 6 warning
vllm serve meta-llama/Llama-3.1-70B-Instruct --max-model-len 8192
