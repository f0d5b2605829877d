# A plugin's variable where nothing names the platform (no image, no pin): it may be read; silent
export VLLM_ASCEND_ENABLE_MLAPO=1
vllm serve Qwen/Qwen3-8B
