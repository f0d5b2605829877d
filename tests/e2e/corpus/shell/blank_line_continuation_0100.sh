#!/bin/bash
pip install vllm==0.10.0
vllm serve org/m \

  --port 8000
