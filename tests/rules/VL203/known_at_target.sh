export VLLM_NEW_THING=1
vllm serve m
