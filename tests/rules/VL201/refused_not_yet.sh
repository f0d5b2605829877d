# 0.10.0 still reads both variables: nothing is refused
# test-target: 0.10.0
export VLLM_MARLIN_INPUT_DTYPE=int8
export VLLM_USE_V2_MODEL_RUNNER=0
vllm serve m
