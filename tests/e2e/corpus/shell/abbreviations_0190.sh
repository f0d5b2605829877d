#!/usr/bin/env bash
# typed from memory, "it worked on my laptop"
pip install vllm==0.19.1
vllm serve microsoft/Phi-3-mini-4k-instruct \
  --max-model 4096 \
  --gpu-memory 0.85 \
  --tensor_parallel_size 1 \
  --max-num-seqs 64 \
  --max-num-seqs 128
