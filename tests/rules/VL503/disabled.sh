# vLLM reads only 1/true as on: "yes" and 0 leave it off
VLLM_ALLOW_RUNTIME_LORA_UPDATING=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora
VLLM_ALLOW_RUNTIME_LORA_UPDATING=yes vllm serve meta-llama/Llama-3.1-8B-Instruct --enable-lora
