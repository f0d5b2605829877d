# 0.10.0 has no such check (and no --enable-log-outputs: VL1xx's concern)
# test-target: 0.10.0
vllm serve m --enable-auto-tool-choice --tool-call-parser hermes --reasoning-parser deepseek_r1
