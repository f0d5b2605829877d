# a value 0.10.0 deprecated in favour of `mori` and 0.27.1 refuses: the error names the successor, the fix puts it in
vllm serve m --all2all-backend mori_high_throughput
vllm serve m --all2all-backend=mori_high_throughput -tp 2
