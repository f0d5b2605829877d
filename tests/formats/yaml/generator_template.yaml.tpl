# A generator's template (Python's str.format fills it): its {name} fields are unknown values,
# the option words around them are checked; {eager_flag}, a field standing alone, may be any words.
model_name: {service_name}
base_image:
  image: vllm/vllm-openai:v0.27.1
docker_server:
  start_command: >-
    bash -c "vllm serve {model}
    --port 8000
    --max-model-len {max_model_len}
    --swap-space 4
    {eager_flag}"
  server_port: 8000
