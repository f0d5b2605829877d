#!/bin/sh
# fixcheck: origin=0.6.6.post1
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-seq-len-to-capture 4096 --enforce-eager --task generate
