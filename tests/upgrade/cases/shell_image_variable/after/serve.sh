#!/bin/sh
VLLM_IMAGE=vllm/vllm-openai:v0.27.1
docker run --gpus all $VLLM_IMAGE Qwen/Qwen2.5-7B-Instruct
