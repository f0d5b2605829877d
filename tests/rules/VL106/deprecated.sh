# deprecated at 0.10.0 in favour of --cudagraph-capture-sizes
# test-target: 0.10.0
vllm serve m --cuda-graph-sizes 8
