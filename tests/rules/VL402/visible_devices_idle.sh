# the launch's own device list, partly unused: idle by its own choice
# test-expect: VL402 4 warning
export CUDA_VISIBLE_DEVICES=0,1,2,3
vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000
