#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-prompt-adapter --max-prompt-adapters 2
