# A Spyre variable on vLLM's own CUDA image: only the vllm-spyre plugin reads it (warning)
docker run -e VLLM_SPYRE_USE_CB=1 vllm/vllm-openai:v0.27.1 ibm-granite/granite-3.3-8b-instruct
# a misspelt plugin variable is a likely typo wherever it is set
export VLLM_ASCEND_ENABLE_MLAP=0
