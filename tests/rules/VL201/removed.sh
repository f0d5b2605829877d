export VLLM_USE_V1=1
vllm serve m
