# test-target: 0.10.0
# before 0.11.1 parse_args refuses the word `--model` anywhere in the line: `--model=X` alone is taken
# by the option, a later `--model Y` is refused all the same
vllm serve --model=facebook/opt-125m
vllm serve --model=facebook/opt-125m --model /models/opt
