#!/usr/bin/env bash
# Same flags as the 0.8.x script, new image. Someone should check these still work.
IMAGE=vllm/vllm-openai:v0.27.1

docker run --rm --runtime nvidia --gpus '"device=0,1,2,3"' \
    --shm-size 16g \
    -p 8000:8000 \
    -e VLLM_USE_V1=1 \
    $IMAGE \
    --model meta-llama/Llama-3.3-70B-Instruct \
    --tensor-parallel-size 4 \
    --swap-space 4 \
    --max-num-partial-prefills 2 \
    --max-long-partial-prefills 1 \
    --cuda-graph-sizes 1 2 4 8 \
    --guided-decoding-backend=outlines \
    --disable-log-requests
