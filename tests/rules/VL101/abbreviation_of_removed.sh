# --swap: a prefix of nothing at 0.27.1, of --swap-space before: resolved through history
vllm serve m --swap 4
