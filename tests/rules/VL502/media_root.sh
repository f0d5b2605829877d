# test-expect: VL502 2 warning
vllm serve meta-llama/Llama-3.1-8B-Instruct --allowed-local-media-path /
vllm serve meta-llama/Llama-3.1-8B-Instruct --allowed-local-media-path /data/images
