#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve Qwen/Qwen3-8B --guided-decoding-backend guidance --guided-decoding-disable-any-whitespace --reasoning-parser qwen3
