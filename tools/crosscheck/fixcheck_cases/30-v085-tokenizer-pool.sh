#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve meta-llama/Llama-3.1-8B-Instruct --tokenizer-pool-size 2 --tokenizer-pool-type ray
