#!/bin/sh
vllm serve m \ 
  --max-model-len 4096
