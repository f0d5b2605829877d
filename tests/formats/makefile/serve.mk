# An included makefile with accepted options: nothing to report.
bench:
	vllm serve facebook/opt-125m --max-num-seqs 32
