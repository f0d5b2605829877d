# -dcp 0: start-up hands the value unchanged to ParallelConfig, whose field is Field(ge=1) (start_fields)
vllm serve m -dcp 0
vllm serve m --decode-context-parallel-size 2
