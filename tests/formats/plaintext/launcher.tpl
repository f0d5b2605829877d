# an unknown launcher in front of the server: read from the server's own command word
gpu-pin --slots 0,1 VLLM_LOGGING_LEVEL=DEBUG vllm serve facebook/opt-125m --swap-space 4
