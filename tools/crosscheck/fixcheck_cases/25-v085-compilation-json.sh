#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve meta-llama/Llama-3.1-8B-Instruct --compilation-config '{"level": 3, "cudagraph_capture_sizes": [1, 2, 4, 8]}'
