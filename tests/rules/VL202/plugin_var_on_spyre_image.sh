# The launch runs in a Spyre image: the plugin reads VLLM_SPYRE_USE_CB (silent); a misspelt
# plugin variable gets the plugin's own name as the suggestion
docker run -e VLLM_SPYRE_USE_CB=1 -e VLLM_SPYRE_WARMUP_BATCH_SIZE=4 quay.io/ibm-aiu/vllm-spyre:1.10.0 \
  vllm serve ibm-granite/granite-3.3-8b-instruct
