#!/bin/sh
# fixcheck: origin=0.6.6.post1
vllm serve meta-llama/Llama-3.1-8B-Instruct --scheduler-delay-factor 0.5 --disable-async-output-proc --enable-chunked-prefill
