# a shell variable: unknown, never reported
vllm serve m --dtype half --max-num-seqs "$SEQS"
