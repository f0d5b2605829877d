#!/bin/sh
# fixcheck: origin=0.6.6.post1
vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 8 --speculative-model meta-llama/Llama-3.2-1B-Instruct --num-speculative-tokens 3 --speculative-max-model-len 4096
