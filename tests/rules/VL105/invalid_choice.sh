vllm serve m --dtype fp16
