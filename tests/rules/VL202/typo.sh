# test-target: 0.10.0
export VLLM_ATENTION=x
vllm serve m
