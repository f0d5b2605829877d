#!/bin/bash
# An image whose entrypoint turns SM_VLLM_* variables into vLLM's options (a SageMaker-style
# container), run locally: its variables are the launch, the release is the image tag's (0.10.0).
# `-e NAME` takes its value from the caller's environment (unknown here); `false` leaves the
# option out; --env-file is not read. --num-scheduler-steps went in 0.10.0.
# test-target: none
docker run --gpus 2 -p 8080:8080 \
  --env-file ./sagemaker.env \
  -e HF_TOKEN \
  -e SM_VLLM_MODEL=Qwen/Qwen2.5-7B-Instruct \
  -e SM_VLLM_TENSOR_PARALLEL_SIZE=2 \
  --env SM_VLLM_NUM_SCHEDULER_STEPS=8 \
  --env=SM_VLLM_ENFORCE_EAGER=true \
  -e SM_VLLM_MAX_MODEL_LEN \
  -e SM_VLLM_DISABLE_LOG_STATS=false \
  -e SM_VLLM_NO_SUCH_OPTION=1 \
  registry.example.com/llm/vllm-sagemaker:0.10.0-gpu-py312

# a command after the image runs instead of its entrypoint: no launch
docker run --rm -e SM_VLLM_MODEL=Qwen/Qwen2.5-7B-Instruct registry.example.com/llm/vllm-sagemaker:0.10.0-gpu-py312 env
