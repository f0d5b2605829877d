# 0.20+: ParallelConfig's after validator refuses an empty item, a word that is no numactl CPU list
# and a descending range
# test-expect: VL105 4 error
vllm serve m --numa-bind --numa-bind-cpus 0-3 ''
vllm serve m --numa-bind --numa-bind-cpus 0-3,a
vllm serve m --numa-bind --numa-bind-cpus 0-3 7-4
vllm serve m --numa-bind --numa-bind-cpus 0-3 4-7 0,2,4-7
