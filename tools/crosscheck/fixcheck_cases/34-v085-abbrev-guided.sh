#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve Qwen/Qwen2.5-7B-Instruct --guided-dec xgrammar --max-num-batched 4096
