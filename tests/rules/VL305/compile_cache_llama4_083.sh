# the one documented use: toggling attn_temperature_tuning on 0.8.x
# test-target: 0.8.5
VLLM_DISABLE_COMPILE_CACHE=1 vllm serve meta-llama/Llama-4-Scout-17B-16E-Instruct -tp 8 \
  --override-generation-config='{"attn_temperature_tuning": true}'
