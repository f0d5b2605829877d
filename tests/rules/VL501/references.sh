# references and placeholders are fine
HF_TOKEN=$HF_TOKEN vllm serve meta-llama/Llama-3.1-8B-Instruct --api-key "$VLLM_API_KEY"
VLLM_API_KEY=changeme vllm serve meta-llama/Llama-3.1-8B-Instruct --api-key '<your-key>'
vllm serve meta-llama/Llama-3.1-8B-Instruct --api-key ${API_KEY}
HF_TOKEN=HUGGINGFACE_TOKEN vllm serve meta-llama/Llama-3.1-8B-Instruct --api-key MY_VLLM_API_KEY
