VLLM_SERVER_DEV_MODE=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --allowed-local-media-path /srv/media
