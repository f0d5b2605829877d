# vllm serve --model: moved to the positional slot with a warning that it will be removed (0.11.1+)
# test-target: 0.27.1
# test-expect: VL106 5 warning
# test-expect: VL106 7 warning
vllm serve --model org/m --port 8000
# not first, but nothing refuses the positional later: dropping the word is still safe
vllm serve --port 8000 --model=org/m
# 0.17+ refuses --served-model-name after a leading option: the finding has no automatic fix
vllm serve --port 8000 --model org/m --served-model-name m
# the api_server module takes --model as its ordinary option
python -m vllm.entrypoints.openai.api_server --model org/m
