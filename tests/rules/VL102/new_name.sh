# the new name: nothing to report
vllm serve m --cudagraph-capture-sizes 1 2 4
