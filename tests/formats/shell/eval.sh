#!/usr/bin/env bash
# `eval` joins its words and runs them as a command line: the launch inside its string is read,
# each word where it is written (the removed option gets a fix in place); a variable stays opaque.
EXTRA_ARGS="${EXTRA_ARGS:-}"
eval "exec vllm serve /models/llama \
  --served-model-name llama \
  --swap-space 16 \
  --dtype bf16 \
  ${EXTRA_ARGS} \
  $@"
