# two servers share the listed devices: neither leaves them idle (silent)
export CUDA_VISIBLE_DEVICES=0,1,2,3
vllm serve meta-llama/Llama-3.1-8B-Instruct -tp 2 --port 8001 &
vllm serve Qwen/Qwen2.5-7B-Instruct -tp 2 --port 8002 &
wait
