#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve meta-llama/Llama-3.1-8B-Instruct --preemption-mode swap --scheduler-delay-factor 0.1 --disable-async-output-proc
