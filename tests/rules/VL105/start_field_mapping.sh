# --additional-config: the parser keeps a word that is not `{...}` as a string; VllmConfig takes only a mapping
vllm serve m --additional-config /etc/extra.json
vllm serve m --additional-config '{"a": 1}'
vllm serve m --additional-config.a 1
# dotted keys are appended after every other word: their object replaces the string
vllm serve m --additional-config foo --additional-config.a 1
# the later value wins
vllm serve m --additional-config foo --additional-config '{}'
