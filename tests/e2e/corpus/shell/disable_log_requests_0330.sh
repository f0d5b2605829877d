#!/usr/bin/env bash
# 0.33 brought --disable-log-requests back; 0.20 pods in the other cluster still run this too
pip install vllm==0.33.0
vllm serve openai/gpt-oss-20b \
  --disable-log-requests \
  --async-scheduling
