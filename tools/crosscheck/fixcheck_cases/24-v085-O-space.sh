#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve meta-llama/Llama-3.1-8B-Instruct -O 3 --gpu-memory-utilization 0.95
