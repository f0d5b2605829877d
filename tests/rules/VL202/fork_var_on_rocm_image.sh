# test-target: 0.27.1
# test-expect: VL202 8 warning
# test-expect: VL202 10 info
# test-expect: VL202 14 warning
# ROCm's image runs ROCm's fork, which reads VLLM_FP8_PADDING: silent there, a warning naming the
# fork on vLLM's own image; a name nothing reads is still reported on the fork's image
docker run --device /dev/kfd -e VLLM_FP8_PADDING=1 rocm/vllm:rocm6.3.1_vllm_0.8.5_20250521 vllm serve org/model
docker run --gpus all -e VLLM_FP8_PADDING=1 vllm/vllm-openai:v0.27.1 --model org/model
docker run --device /dev/kfd -e VLLM_FP8_PADDING=1 \
  -e VLLM_NOT_READ_ANYWHERE=1 rocm/vllm-dev:rocm6.4.1_vllm_0.10.0_20250812 vllm serve org/model
# an image of ROCm's naming no release may run the fork or vLLM's own build: no finding either way
docker run --device /dev/kfd -e VLLM_FP8_PADDING=1 rocm/vllm:latest vllm serve org/model
# one naming vLLM 0.11.0 or later is vLLM's own build, which does not read it
docker run --device /dev/kfd -e VLLM_FP8_PADDING=1 rocm/vllm:rocm7.0.0_vllm_0.11.1_20251103 vllm serve org/model
