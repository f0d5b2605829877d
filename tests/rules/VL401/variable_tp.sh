# `TP` is assigned once before the launch: its value is the launch's (the finding says where).
MODEL=Qwen/Qwen2.5-7B-Instruct
TP=8
# test-expect: VL401 5 error
vllm serve "$MODEL" --tensor-parallel-size "$TP"
