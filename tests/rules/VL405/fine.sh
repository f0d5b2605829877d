# test-target: 0.27.1
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --enable-eplb --eplb-config '{"communicator": "torch_gloo"}'
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --enable-eplb --eplb-config '{"communicator": "pynccl", "use_async": false}'
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --eplb-config '{"communicator": "pynccl"}'
