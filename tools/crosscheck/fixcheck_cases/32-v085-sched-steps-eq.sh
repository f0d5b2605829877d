#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve meta-llama/Llama-3.1-8B-Instruct --num-scheduler-steps=10 --multi-step-stream-outputs --disable-async-output-proc
