#!/bin/sh
# `docker run` of the vLLM image: the tag names the release (no -t), the options follow the image;
# --num-scheduler-steps went in 0.10.0.
# test-target: none
docker run --gpus all -p 8000:8000 \
    -v "$HOME/.cache/huggingface:/root/.cache/huggingface" \
    vllm/vllm-openai:v0.10.0 \
    --model mistralai/Mistral-7B-Instruct-v0.3 \
    --num-scheduler-steps 8 \
    --gpu-memory-utilization 0.85
