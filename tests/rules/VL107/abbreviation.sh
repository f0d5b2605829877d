# an abbreviation argparse expands: the fix writes the full name
# test-target: 0.8.5
vllm serve m --cuda-graph 8
