#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve meta-llama/Llama-3.1-8B-Instruct -O '{"level": 3, "cudagraph_capture_sizes": [1, 2, 4]}'
