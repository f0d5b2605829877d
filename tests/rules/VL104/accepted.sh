# accepted at 0.10.0
# test-target: 0.10.0
vllm serve m --async-scheduling
