#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve meta-llama/Llama-3.1-8B-Instruct -O3 --max_num_seqs 256 --kv_cache_dtype fp8
