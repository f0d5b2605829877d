# test-target: 0.23.0
# test-expect: VL405 4 warning
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --enable-eplb \
  --eplb-config.communicator torch_nccl
