#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-seq-len-to-capture 16384 --enforce-eager
