export VLLM_HOST_IP=10.0.0.1
vllm serve m
