#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve meta-llama/Llama-3.1-8B-Instruct --cuda-graph-sizes 1 2 4 8 16 --max-num-seqs 16
