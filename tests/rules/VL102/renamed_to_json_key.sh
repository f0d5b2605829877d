# renamed into a key of a JSON config option
vllm serve m --guided-decoding-backend=xgrammar
