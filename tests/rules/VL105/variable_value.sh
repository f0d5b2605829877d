# A value set once in the script is as much the launch's as a literal: checked against the
# choices, with no fix (a fix would write the value in the variable's place).
DTYPE=fp16
# test-expect: VL105 5 error
vllm serve facebook/opt-125m --dtype "$DTYPE"
if [ -n "$HALF" ]; then DTYPE2=half; else DTYPE2=fp16; fi
vllm serve facebook/opt-125m --dtype "$DTYPE2"
