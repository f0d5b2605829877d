#!/usr/bin/env bash
# compare compile levels
pip install vllm==0.13.0

for lvl in 0 3; do
  vllm serve Qwen/Qwen3-8B -O$lvl --port 800$lvl &
done

vllm serve Qwen/Qwen3-8B -O3 --port 8005 &
vllm serve Qwen/Qwen3-8B --compilation-config '{"cudagraph_capture_sizes": [1, 2, 4, 8]}' --port 8006 &
wait
