#!/usr/bin/env bash
# Values passed through variables: a literal assigned on every path to the launch is the launch's
# value (the findings say where it is set; no fix writes it in the variable's place); a variable
# that a branch, a loop, a function, `read` or a command substitution may change stays opaque.
# test-target: 0.27.1
set -euo pipefail

MODEL=meta-llama/Llama-4-Maverick-17B-128E-Instruct
TP=3
export GPU_MEM=1.2
MODEL_NAME="Qwen/Qwen2.5-7B-Instruct"
MODELS_DIR=/models
QWEN_TP=3

# assignment and export: TP 3 does not divide 40 heads; 1.2 is above 1
# test-expect: VL401 18 error
# test-expect: VL410 18 error
vllm serve $MODEL --tensor-parallel-size $TP --gpu-memory-utilization ${GPU_MEM}

# a quoted variable (the fix of `--model` keeps it as written); a default expansion of a known
# variable gives its value (3 does not divide Qwen2.5-7B's 28 heads), of one the script leaves to
# the environment, or sets only later, stays opaque
# test-expect: VL106 25 warning
# test-expect: VL401 25 error
vllm serve --model "$MODEL_NAME" -tp "${QWEN_TP:-4}" --max-model-len "${MAX_LEN:-999999}"
vllm serve "$MODEL_NAME" -tp ${LATER_TP:-3}
LATER_TP=4

# silent: the value depends on a branch, a loop, input or a command
if [ -n "${BIG:-}" ]; then
  TP=8
fi
vllm serve "$MODEL_NAME" --tensor-parallel-size $TP
for tp in 3 5; do
  vllm serve "$MODEL_NAME" --tensor-parallel-size "$tp"
done
read -r MEM_SHARE
vllm serve "$MODEL_NAME" --gpu-memory-utilization "$MEM_SHARE"
LEN=$(cat max_len.txt)
vllm serve "$MODEL_NAME" --max-model-len "$LEN"

# a path built from known parts is the model (a folder named after it)
MAXLEN=999999
# test-expect: VL403 45 error
vllm serve "$MODELS_DIR/Qwen2.5-7B-Instruct" --max-model-len $MAXLEN
