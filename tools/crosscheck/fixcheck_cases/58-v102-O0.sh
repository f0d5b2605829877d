#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve meta-llama/Llama-3.1-8B-Instruct -O 0 --gpu-memory-utilization 0.8
