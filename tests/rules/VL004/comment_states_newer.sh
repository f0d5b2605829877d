#!/bin/sh
# fires: the comment before the launch states the release it runs on, newer than the database
# Runs on vLLM 0.31.2 (see the image in deploy/).
vllm serve Qwen/Qwen3-8B --max-model-len 8192
