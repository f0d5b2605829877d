# a typo: the message suggests the close match
vllm serve m --tensor-paralel-size 2
