#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --enable-expert-parallel --enable-eplb --num-redundant-experts 32 --eplb-window-size 1000 --eplb-step-interval 3000
