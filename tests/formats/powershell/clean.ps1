# Accepted options: nothing to report.
vllm serve facebook/opt-125m --max-num-seqs 16
