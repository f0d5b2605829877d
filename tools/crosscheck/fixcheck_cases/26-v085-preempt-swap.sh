#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve meta-llama/Llama-3.1-8B-Instruct --preemption-mode recompute --swap-space 0 --block-size 16
