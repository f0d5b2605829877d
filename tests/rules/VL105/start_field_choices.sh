# --data-parallel-backend takes any word at the parser; ParallelConfig takes only its Literal choices at start
vllm serve m --data-parallel-backend foo
vllm serve m -dpb ray
