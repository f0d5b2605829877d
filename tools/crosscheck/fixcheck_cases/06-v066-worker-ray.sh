#!/bin/sh
# fixcheck: origin=0.6.6.post1
vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 8 --worker-use-ray --preemption-mode swap
