#!/bin/sh
# fixcheck: origin=0.6.6.post1
vllm serve meta-llama/Llama-3.1-8B-Instruct --num-scheduler-steps 8 --multi-step-stream-outputs --max-num-seqs 256
