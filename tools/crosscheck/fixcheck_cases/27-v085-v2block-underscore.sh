#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve meta-llama/Llama-3.1-8B-Instruct --use_v2_block_manager --max_num_batched_tokens 8192 --enable_chunked_prefill
