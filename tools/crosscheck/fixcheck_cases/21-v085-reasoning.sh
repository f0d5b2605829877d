#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve deepseek-ai/DeepSeek-R1-Distill-Qwen-32B -tp 2 --enable-reasoning --reasoning-parser deepseek_r1 --max-model-len 32768
