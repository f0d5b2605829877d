# an unknown launcher in front of the server, its arguments clearly options and values: read through
gpu-pin --slots 0,1 VLLM_LOGGING_LEVEL=DEBUG vllm serve facebook/opt-125m --swap-space 4
