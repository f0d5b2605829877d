# The image in a make variable: `docker run $(VLLM_IMAGE)` runs that image, checked at its release
# (0.8.5 takes --num-scheduler-steps; 0.8.5 has no --async-scheduling yet).
# test-target: none
VLLM_IMAGE := vllm/vllm-openai:v0.8.5
export VLLM_USE_V1 = 1

serve:
	docker run --gpus all $(VLLM_IMAGE) \
		--model facebook/opt-125m --num-scheduler-steps 8 --async-scheduling
