# --async-scheduling first appears in 0.10.0
# test-target: 0.8.5
vllm serve m --async-scheduling
