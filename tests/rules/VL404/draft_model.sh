# draft_model with async scheduling: rejected before 0.17.0
# test-target: 0.16.0
# test-expect: VL404 4 error
vllm serve meta-llama/Llama-3.1-70B-Instruct --async-scheduling --speculative-config '{"method": "draft_model", "model": "meta-llama/Llama-3.2-1B-Instruct"}'
