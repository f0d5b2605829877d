#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve meta-llama/Llama-3.1-8B-Instruct --compilation-config.level 3 --compilation-config.cudagraph_mode FULL_AND_PIECEWISE
