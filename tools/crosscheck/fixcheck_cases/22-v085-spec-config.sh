#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 --speculative-config '{"model": "meta-llama/Llama-3.2-1B-Instruct", "num_speculative_tokens": 5}'
