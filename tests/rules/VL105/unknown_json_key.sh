# a key the JSON config does not have
vllm serve m --compilation-config '{"levle": 3}'
