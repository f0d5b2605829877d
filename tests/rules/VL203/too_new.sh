# VLLM_NEW_THING first appears in 0.27.1
# test-target: 0.10.0
export VLLM_NEW_THING=1
vllm serve m
