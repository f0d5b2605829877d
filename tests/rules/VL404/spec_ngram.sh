# ngram is not EAGLE/MTP: rejected on every release so far
# test-target: 0.27.1
# test-expect: VL404 4 error
vllm serve meta-llama/Llama-3.1-8B-Instruct --async-scheduling --speculative-config.method ngram --speculative-config.num_speculative_tokens 4
