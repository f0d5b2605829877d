#!/bin/sh
# fixcheck: origin=0.6.6.post1
vllm serve Qwen/Qwen2.5-14B-Instruct --max-model-len=32768 --guided-decoding-backend=outlines --swap-space=4 --port=8000
