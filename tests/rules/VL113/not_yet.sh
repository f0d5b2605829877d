# 0.27.1 does not deprecate the module: silent
# test-target: 0.27.1
python3 -m vllm.entrypoints.openai.api_server --model org/m --port 8000
