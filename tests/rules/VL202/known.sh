# test-target: 0.10.0
export VLLM_HOST_IP=10.0.0.1 OTHER_TOOL=1
vllm serve m
