# test-target: 0.27.1
# test-expect: VL201 5 warning
# HabanaAI's fork reads VLLM_SKIP_WARMUP, vLLM's own image does not: vLLM's timeline applies there
# (the synthetic database's 0.8.5 and 0.10.0 read VLLM_USE_V1)
docker run --gpus all -e VLLM_USE_V1=0 -e VLLM_SKIP_WARMUP=true vllm/vllm-openai:v0.27.1 --model org/model
