# 8B bf16 is 15 GiB; one 131072-token sequence needs 16 GiB of KV cache; an L4 gives 24 x 0.9
# test-args: --gpu NVIDIA-L4 --gpus 1
# test-expect: VL407 4 warning
vllm serve RedHatAI/Llama-3.1-8B-Instruct
