# not deprecated yet at 0.8.5
# test-target: 0.8.5
vllm serve m --cuda-graph-sizes 8
