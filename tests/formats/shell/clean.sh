#!/bin/bash
# Every option accepted by the target release: nothing to report.
vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 4 --max-num-seqs 128 \
    --host 0.0.0.0 --port 8080   # trailing comment
