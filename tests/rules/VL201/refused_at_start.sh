# 0.27.1 (synthetic) refuses to start with a removed variable set (any value) and with a variable
# it checks set to anything but 1; 1 is accepted and ignored; an unknown value cannot be judged
export VLLM_MARLIN_INPUT_DTYPE=int8
export VLLM_USE_V2_MODEL_RUNNER=0
VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m
VLLM_USE_V2_MODEL_RUNNER="$RUNNER" vllm serve m
