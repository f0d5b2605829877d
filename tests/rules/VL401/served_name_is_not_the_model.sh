# --served-model-name is not the model; the model here is unknown
vllm serve /models/m --served-model-name Qwen/Qwen2.5-7B-Instruct -tp 8
