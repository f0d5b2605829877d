#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve intfloat/e5-mistral-7b-instruct --task embed --max-model-len 4096
