# test-expect: VL503 2 warning
export VLLM_ALLOW_RUNTIME_LORA_UPDATING=1
vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora --max-loras 4
