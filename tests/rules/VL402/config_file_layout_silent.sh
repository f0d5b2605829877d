# the parallel layout may come from the --config file (linted on its own): no idle-GPU claim
export CUDA_VISIBLE_DEVICES=6,7
vllm serve --config vllm_config.yaml --port 8000
