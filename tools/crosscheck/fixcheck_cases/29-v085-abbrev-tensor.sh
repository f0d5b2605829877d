#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel 4 --max-model 8192 --enable-prefix
