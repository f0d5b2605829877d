# a prefix of nothing, ever
vllm serve m --swapx 4
