#!/usr/bin/env bash
# all tuning lives in vllm-config.yaml so ops can diff it
pip install vllm==0.24.0
vllm serve --config vllm-config.yaml
