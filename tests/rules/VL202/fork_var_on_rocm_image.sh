# test-target: 0.27.1
# test-expect: VL202 7 warning
# test-expect: VL202 9 info
# ROCm's image runs ROCm's fork, which reads VLLM_FP8_PADDING: silent there, a warning naming the
# fork on vLLM's own image; a name nothing reads is still reported on the fork's image
docker run --device /dev/kfd -e VLLM_FP8_PADDING=1 rocm/vllm:rocm6.3.1_vllm_0.8.5_20250521 vllm serve org/model
docker run --gpus all -e VLLM_FP8_PADDING=1 vllm/vllm-openai:v0.27.1 --model org/model
docker run --device /dev/kfd -e VLLM_FP8_PADDING=1 \
  -e VLLM_NOT_READ_ANYWHERE=1 rocm/vllm-dev:nightly vllm serve org/model
