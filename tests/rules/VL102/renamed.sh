# renamed: the fix writes the new name
vllm serve m --cuda-graph-sizes 1 2 4 --port 8000
