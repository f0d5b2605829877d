#!/bin/sh
# fixcheck: origin=0.6.6.post1
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model 4096 --gpu-mem 0.85 --max-num-seq 128
