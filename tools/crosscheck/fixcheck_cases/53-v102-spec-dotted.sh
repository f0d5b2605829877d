#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.method ngram --speculative-config.num_speculative_tokens 4 --speculative-config.prompt_lookup_max 4
