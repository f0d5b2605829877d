# test-target: 0.10.0
# before 0.11.1 vllm serve refuses --model: `--model --port 8000` still leaves --model without its value
vllm serve --model --port 8000 my-model
