# 0.20+: ParallelConfig's after validator refuses a negative NUMA node when start-up builds it
# test-expect: VL410 3 error
vllm serve m --numa-bind --numa-bind-nodes 0 -1
vllm serve m --numa-bind --numa-bind-nodes 0 0 1 1
vllm serve m --numa-bind --numa-bind-nodes -1 --numa-bind-nodes 0
