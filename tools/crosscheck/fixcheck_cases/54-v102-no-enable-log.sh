#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve meta-llama/Llama-3.1-8B-Instruct --no-disable-log-requests --enable-prefix-caching --no-enable-chunked-prefill
