#!/usr/bin/env bash
# the continuation after --port has a trailing space (invisible in review)
pip install vllm==0.15.1
vllm serve meta-llama/Llama-3.1-8B-Instruct \
  --port 8000 \ 
  --max-model-len 16384 \
  --enable-prefix-caching
