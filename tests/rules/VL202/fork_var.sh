# test-target: 0.27.1
# test-expect: VL202 5 warning
# A fork's variable (vllm_lint/data/forks.tsv: the B12X build local-inference-lab/vllm) on vLLM's
# own image, which does not read it: a warning that names the fork
docker run --gpus all -e VLLM_USE_B12X_MOE=1 vllm/vllm-openai:v0.27.1 org/model
