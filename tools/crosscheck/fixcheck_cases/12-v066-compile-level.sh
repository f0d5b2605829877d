#!/bin/sh
# fixcheck: origin=0.6.6.post1
vllm serve meta-llama/Llama-3.1-8B-Instruct -O3 --disable-log-requests --tokenizer-pool-size 4
