docker run --gpus all vllm/vllm-openai:v0.27.1 m --max-model-len 8192
# vLLM's TPU image starts a shell (Dockerfile.tpu: CMD ["/bin/bash"]): `vllm serve` is its command
docker run --privileged vllm/vllm-tpu:v0.27.1 vllm serve m --max-model-len 8192
