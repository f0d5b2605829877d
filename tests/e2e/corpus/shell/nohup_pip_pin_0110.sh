#!/bin/bash
# bootstrap a fresh GPU box and start the server in the background
python3 -m venv /opt/vllm && source /opt/vllm/bin/activate
pip install --upgrade pip
pip install vllm==0.11.0

export HF_HOME=/data/hf
export VLLM_USE_V1=1

nohup vllm serve Qwen/Qwen2.5-7B-Instruct \
    --host 0.0.0.0 --port 8080 \
    --max-model-len 32768 \
    --preemption-mode swap \
    --guided-decoding-backend xgrammar \
    --cuda-graph-sizes 1 2 4 8 16 \
    --enable-prefix-caching \
    > /var/log/vllm.log 2>&1 &

echo "started vllm (pid $!)"
