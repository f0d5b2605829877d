#!/bin/sh
VLLM_IMAGE=vllm/vllm-openai:v0.8.5
docker run --gpus all $VLLM_IMAGE --model Qwen/Qwen2.5-7B-Instruct --swap-space 8
