# a value deprecated at 0.10.0 in favour of another (the option is not): the fix puts the successor in
# test-target: 0.10.0
vllm serve m --all2all-backend mori_high_throughput
vllm serve m --all2all-backend=mori_high_throughput
vllm serve m --all2all-backend mori
