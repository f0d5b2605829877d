# async is the default; pynccl rejected from 0.24.0
# test-target: 0.24.0
# test-expect: VL405 5 error
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --enable-eplb \
  --eplb-config '{"communicator": "pynccl"}'
