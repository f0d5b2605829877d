VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072
vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len auto
vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len -1
vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 --hf-overrides '{"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'
vllm serve acme/unknown --max-model-len 10000000
