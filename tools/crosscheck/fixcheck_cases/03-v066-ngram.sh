#!/bin/sh
# fixcheck: origin=0.6.6.post1
vllm serve Qwen/Qwen2.5-7B-Instruct \
  --speculative-model '[ngram]' --num-speculative-tokens 4 \
  --ngram-prompt-lookup-max 4 --ngram-prompt-lookup-min 2
