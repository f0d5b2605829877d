#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve meta-llama/Llama-3.1-8B-Instruct --disable-log-requests --disable-log-stats --swap-space 4
