# raising the threshold above 2.08% catches Kimi-K2
# test-args: --config {here}/threshold.toml
# test-expect: VL303 4 warning
vllm serve moonshotai/Kimi-K2-Instruct -dp 16 --enable-expert-parallel
