# a short form written with two dashes: the message names the short form and its option
vllm serve m --tp 2 --pp 2
