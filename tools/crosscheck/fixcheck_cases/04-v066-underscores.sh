#!/bin/sh
# fixcheck: origin=0.6.6.post1
vllm serve mistralai/Mistral-7B-Instruct-v0.3 --max_model_len 16384 --gpu_memory_utilization 0.9 --swap_space 8 --disable_log_requests
