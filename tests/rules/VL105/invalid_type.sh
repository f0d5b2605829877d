vllm serve m --max-num-seqs 256.5 --port eighty
