# fires: cu130-nightly moves to each night's build, as :nightly does
# test-expect: VL406 3 warning
docker run --gpus all -p 8000:8000 vllm/vllm-openai:cu130-nightly --model Qwen/Qwen3-8B
