# 0.8.5: --enable-reasoning needs --reasoning-parser
# test-target: 0.8.5
# test-expect: VL112 4 error
vllm serve deepseek-ai/DeepSeek-R1-Distill-Qwen-7B --enable-reasoning
vllm serve deepseek-ai/DeepSeek-R1-Distill-Qwen-7B --enable-reasoning --reasoning-parser deepseek_r1
