# A Spyre variable on a plain vLLM launch: only the vllm-spyre plugin reads it (warning)
export VLLM_SPYRE_USE_CB=1
vllm serve ibm-granite/granite-3.3-8b-instruct
# a misspelt plugin variable is a likely typo wherever it is set
export VLLM_ASCEND_ENABLE_MLAP=0
