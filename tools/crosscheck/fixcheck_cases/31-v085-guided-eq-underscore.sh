#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve Qwen/Qwen2.5-7B-Instruct --guided_decoding_backend=xgrammar --max_model_len=8192
