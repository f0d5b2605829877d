#!/usr/bin/env bash
# Commands built in a variable and then run: a string extended piece by piece and run by eval,
# an array run by its splat, a string run by `bash -c` and unquoted. Each option is read (and
# fixed) where it is written; the unknown pieces ($MODEL, $TP) stay opaque.
MODEL="${MODEL:-facebook/opt-125m}"
CMD="vllm serve $MODEL --port 8000"
CMD="$CMD --swap-space 4"
if [ -n "${TP:-}" ]; then
  CMD+=" --tensor-parallel-size $TP"
fi
echo "Running: $CMD"
eval "$CMD"

SERVER=(
  python3 -m vllm.entrypoints.openai.api_server
  --model "$MODEL"
  --swap-space 8
)
SERVER+=(--port 8001)
nohup "${SERVER[@]}" > server.log 2>&1 &

WORKER="vllm serve $MODEL --port 8002 --swap-space 2"
bash -c "$WORKER"
