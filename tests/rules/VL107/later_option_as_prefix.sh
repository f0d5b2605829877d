# test-target: 0.10.0
# `--enforce` is an option only from 0.27.1: at 0.10.0 it is a plain abbreviation of --enforce-eager, not a former option
vllm serve m --enforce
