# test-target: 0.10.0
# any speculative config is rejected on 0.10.x
# test-expect: VL404 4 error
vllm serve meta-llama/Llama-3.1-8B-Instruct --async-scheduling --speculative-config '{"method": "eagle3", "model": "x/y", "num_speculative_tokens": 3}'
