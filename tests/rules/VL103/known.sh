vllm serve m --tensor-parallel-size 2 -tp 2 --dtype half
