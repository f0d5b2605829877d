#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve Qwen/Qwen2.5-VL-72B-Instruct -tp 8 --enable-multimodal-encoder-data-parallel --limit-mm-per-prompt '{"image": 4}'
